// Renders skills for a prompt within a token budget: structured compression first, then truncation.
import type { BundledSkill } from "../packs/bundle";
import { estimateTokens } from "../search/tokens";

interface Parts {
  skill: BundledSkill;
  preconditions: string[];
  steps: string[];
  failureModes: string[];
}

export const TRUNCATION_MARKER = "\n[…truncated to fit the token budget]";

function render(p: Parts): string {
  const s = p.skill;
  const lines = [`<skill name="${s.name}" id="${s.id}">`, `# ${s.title}`, `Use when: ${s.trigger}`];
  if (p.preconditions.length > 0) lines.push("Preconditions:", ...p.preconditions.map((x) => `- ${x}`));
  if (p.steps.length > 0) lines.push("Steps:", ...p.steps.map((x, i) => `${i + 1}. ${x}`));
  if (s.body) lines.push("", s.body.trim());
  if (p.failureModes.length > 0) lines.push("Failure modes:", ...p.failureModes.map((x) => `- ${x}`));
  lines.push("</skill>");
  return lines.join("\n");
}

/**
 * The skills as prompt text of at most `maxTokens` (by the same estimator as `context`). Over
 * budget, it drops failure modes, then preconditions, then trailing steps (longest procedure
 * first), and only then cuts the text, ending with a marker.
 *
 * @example formatSkills([skill], 1500)
 */
export function formatSkills(skills: readonly BundledSkill[], maxTokens: number): string {
  const parts: Parts[] = skills.map((skill) => ({
    skill,
    preconditions: [...skill.preconditions],
    steps: [...skill.steps],
    failureModes: [...skill.failure_modes],
  }));
  const text = () => parts.map(render).join("\n\n");
  const fits = (t: string) => estimateTokens(t) <= maxTokens;
  let out = text();
  if (fits(out)) return out;
  for (const p of parts) p.failureModes = [];
  out = text();
  if (fits(out)) return out;
  for (const p of parts) p.preconditions = [];
  out = text();
  for (;;) {
    if (fits(out)) return out;
    const longest = parts.reduce<Parts | null>(
      (a, p) => (p.steps.length > 1 && (!a || p.steps.length > a.steps.length) ? p : a),
      null,
    );
    if (!longest) break;
    longest.steps.pop();
    out = text();
  }
  return truncate(out, maxTokens);
}

/** The longest prefix that fits with the marker (binary search on length). */
function truncate(text: string, maxTokens: number): string {
  const room = maxTokens - estimateTokens(TRUNCATION_MARKER);
  if (room <= 0) return "";
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(text.slice(0, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  // Estimates are not additive at the seam, so confirm the joined text and back off if needed.
  let out = `${text.slice(0, lo)}${TRUNCATION_MARKER}`;
  while (lo > 0 && estimateTokens(out) > maxTokens) {
    lo = Math.floor(lo * 0.95);
    out = `${text.slice(0, lo)}${TRUNCATION_MARKER}`;
  }
  return estimateTokens(out) <= maxTokens ? out : "";
}

/** Tells the model how to find and read skills (after RFC v0.3 Appendix A). */
export function skillDiscoveryBlock(): string {
  return [
    "<skill_discovery>",
    "Skills are short playbooks for recurring tasks. Call `skill_search` with what you are trying to do",
    "to find one, then `skill_load` with its name to read it before you act.",
    "</skill_discovery>",
  ].join("\n");
}
