// Keeps skill text from naming tools this session may not use (Penguiflow RFC v0.3 §3.12).

const NAME_LIKE = /[A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_]|[A-Za-z0-9_]/g;

/**
 * Rewrites every mention of a hidden tool (a name-like token for which `hidden` is true) as
 * `replacement`. Tokens are whole name-shaped runs, so `my_tool` does not hide `my_tool_v2`.
 *
 * @example redactToolNames("Call `secret.rm`.", (t) => t === "secret.rm", "a tool from tool_search")
 */
export function redactToolNames(
  text: string,
  hidden: (token: string) => boolean,
  replacement: string,
): string {
  return text.replace(NAME_LIKE, (token) => (hidden(token) ? replacement : token));
}
