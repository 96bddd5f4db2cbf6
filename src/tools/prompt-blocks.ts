// The prompt blocks Trove adds to an agent's system prompt (after Penguiflow RFC v0.3 Appendix A).

/** Tells the model how to find tools it cannot see yet. */
export function toolDiscoveryBlock(deferredCount: number): string {
  const more =
    deferredCount > 0
      ? `${deferredCount} more tool${deferredCount === 1 ? " is" : "s are"} available but not listed.`
      : "Every tool available to you is listed.";
  return [
    "<tool_discovery>",
    more,
    "To find one, call `tool_search` with a short description of the capability you need",
    '(for example "create a calendar event"), then call the tool by the name it returns.',
    "Only tools you are allowed to use are ever returned.",
    "</tool_discovery>",
  ].join("\n");
}
