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

/** The attached capability packs, metadata only, and how to use them (Capability Packs spec §5.2–5.3). */
export function packsBlock(
  packs: readonly { pack_id: string; name: string; description: string; has_tools: boolean }[],
): string {
  if (packs.length === 0) return "";
  const entries = packs.flatMap((p) => [
    `- pack_id: ${p.pack_id}`,
    `  name: ${p.name}`,
    `  description: ${p.description.replace(/\s+/g, " ").trim()}`,
    `  has_tools: ${p.has_tools}`,
  ]);
  return [
    "<capability_packs>",
    "Capability packs attached to this conversation (metadata only):",
    ...entries,
    "Only the packs listed here are available. Before relying on one, call `pack_open_docs` with its",
    "pack_id and follow its instructions; read the files it mentions with `pack_read_file`. If you need",
    "a pack's tools (has_tools: true), call `pack_enable_tools` first: they are listed from your next",
    "turn on. Never assume what a pack contains without opening it, and ask the user for missing",
    "inputs rather than guessing.",
    "</capability_packs>",
  ].join("\n");
}
