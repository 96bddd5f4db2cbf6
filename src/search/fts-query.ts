// Builds an FTS5 MATCH expression that no user text can break: quoted terms joined by OR.

/** `"a" OR "b"` for the given normalized terms, or null when nothing is searchable. */
export function ftsMatchExpression(terms: readonly string[]): string | null {
  const quoted = [...new Set(terms)].filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
  return quoted.length > 0 ? quoted.join(" OR ") : null;
}
