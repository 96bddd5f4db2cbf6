// Makes skill and pack text safe to render for this session: it never names a tool the session
// may not use (Penguiflow RFC v0.3 §3.12) and, unless `skills.redact_pii` is off, carries no
// personal data or secrets (Appendix C).

import type { BundledPack, BundledSkill, BundledTool } from "../packs/bundle";
import { globMatcher, type NameMatcher } from "../search/glob";
import { visiblePacks } from "../skills/pack-upsert";
import { redactPii } from "../skills/pii";
import { redactToolNames, type TokenSite } from "../skills/redact";
import { skillPolicy } from "../skills/skill-store";
import { visibilityFor } from "../tools/policy";
import { normalizeTool, qualifiedName } from "../tools/tool-record";
import { broughtName } from "./brought-tools";
import { modelToolNames } from "./builtins";
import type { OpContext } from "./operation";

/** Whose text it is: its own tools (and the tools it names) are judged with it. */
export type Owner = { skill: BundledSkill } | { pack: BundledPack };

/**
 * Redacted texts by source text. The same skill titles, triggers and docs are rendered over and
 * over, and redaction is a pure function of the text: a hit costs a lookup instead of ~6 µs of
 * regex passes per string (measured in-object), which matters for search results.
 */
const piiMemo = new Map<string, string>();
const PII_MEMO_MAX = 5_000;
const PII_MEMO_MAX_TEXT = 2_000;

function withoutPii(text: string): string {
  if (text.length > PII_MEMO_MAX_TEXT) return redactPii(text).text;
  let out = piiMemo.get(text);
  if (out === undefined) {
    out = redactPii(text).text;
    if (piiMemo.size >= PII_MEMO_MAX) piiMemo.clear();
    piiMemo.set(text, out);
  }
  return out;
}

/** Per bundle, the skills that bring tools (few or none): what hidden() needs to look at. */
const skillsWithTools = new WeakMap<object, BundledSkill[]>();

/** A tool name's first name-shaped run: `Bash(git:*)` → `Bash`. */
const TOOL_REF = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*/;

export class TextGuard {
  #hidden: Set<string> | null = null;
  /** Per owner object (a skill or pack of the bundle): its hidden set, made once per request. */
  readonly #hiddenByOwner = new WeakMap<object, Set<string>>();
  /** Per token: matched by the deny globs and no tool the model may use. */
  readonly #deniedMemo = new Map<string, boolean>();
  readonly #visibility;
  readonly #deny: NameMatcher;
  /** Deny entries without `*` or `?`: exact tool names, the only ones a plain word can match. */
  readonly #denyExact: ReadonlySet<string>;
  readonly #hasDeny: boolean;
  readonly #searchVisible: boolean;
  readonly #pii: boolean;

  constructor(private readonly ctx: OpContext) {
    const config = ctx.config.get();
    this.#visibility = visibilityFor(config);
    // Compiled once per glob list and cached (search/glob.ts): no regex is built per request.
    this.#deny = globMatcher(config.policy.deny);
    this.#denyExact = new Set(config.policy.deny.filter((p) => !/[*?]/.test(p)));
    this.#hasDeny = config.policy.deny.length > 0;
    this.#searchVisible = this.#visibility.allowed("tool_search", "tool_search");
    this.#pii = config.skills.redact_pii;
  }

  /**
   * `text` as it may be shown: references to hidden tools rewritten, then personal data redacted.
   * Only tool references are candidates (skills/redact.ts): code spans, identifier-shaped tokens
   * and calls; "Then Read the file" stays prose even when no tool `Read` is usable.
   */
  text(text: string, owner?: Owner): string {
    const hidden = this.hiddenFor(owner);
    const replacement = this.#searchVisible ? "a tool found with tool_search" : "another tool";
    const safe =
      hidden.size === 0 && !this.#hasDeny
        ? text
        : redactToolNames(text, (token, site) => this.hides(hidden, token, site), replacement);
    return this.#pii ? withoutPii(safe) : safe;
  }

  /**
   * A reference is hidden when it names a tool this session may not use, or when the deny globs
   * match it (as name and as qualified name) even though no catalog holds it (RFC v0.3 §3.12: a
   * denied tool is never named). Plain words (in code or calls) match exact deny entries only, so
   * `deny: ["git*"]` leaves `git status` alone; a URL's host or an email address is judged by the
   * known names only, so `deny: ["github.*"]` leaves https://github.com/… whole.
   */
  private hides(hidden: ReadonlySet<string>, token: string, site: TokenSite): boolean {
    if (hidden.has(token)) return true;
    if (!this.#hasDeny || site.address) return false;
    if (!site.identifier && !this.#denyExact.has(token)) return false;
    let denied = this.#deniedMemo.get(token);
    if (denied === undefined) {
      denied = this.#deny(token, token) && !this.usable(token);
      this.#deniedMemo.set(token, denied);
    }
    return denied;
  }

  /** A copy of `skill` with every text field guarded (name and id are the skill's identity). */
  skill(skill: BundledSkill): BundledSkill {
    const owner = { skill };
    const t = (s: string) => this.text(s, owner);
    return {
      ...skill,
      title: t(skill.title),
      description: t(skill.description),
      trigger: t(skill.trigger),
      steps: skill.steps.map(t),
      body: skill.body === null ? null : t(skill.body),
      preconditions: skill.preconditions.map(t),
      failure_modes: skill.failure_modes.map(t),
      // Penguiflow `notes` are rendered by skill_load.
      extra:
        typeof skill.extra.notes === "string" ? { ...skill.extra, notes: t(skill.extra.notes) } : skill.extra,
    };
  }

  /** Tool names this session may not use, for any text; owner text adds its own references. */
  private hiddenFor(owner: Owner | undefined): Set<string> {
    const base = this.hidden();
    if (!owner) return base;
    const own = "skill" in owner ? owner.skill : owner.pack;
    const known = this.#hiddenByOwner.get(own);
    if (known) return known;
    const ownerName = own.name;
    const ownerAllowed = "skill" in owner ? this.skillAllowed(owner.skill) : true;
    const extra: string[] = [];
    // The owner's own tools by their bare names too ("call `create_ticket`"), unless the bare name
    // is a tool this session may use anyway.
    for (const tool of own.tools) {
      if (ownerAllowed && this.broughtAllowed(ownerName, tool)) continue;
      extra.push(broughtName(ownerName, tool.name));
      if (!this.usable(tool.name)) extra.push(tool.name);
    }
    // Tools a skill names in its metadata (Penguiflow `tools`, Agent Skills `allowed-tools`).
    if ("skill" in owner) {
      for (const name of referencedTools(owner.skill)) if (!this.usable(name)) extra.push(name);
    }
    const hidden = extra.length === 0 ? base : new Set([...base, ...extra]);
    this.#hiddenByOwner.set(own, hidden);
    return hidden;
  }

  /** Denied catalog tools, denied builtins, and denied tools of the packs and skills in view. */
  private hidden(): Set<string> {
    if (this.#hidden) return this.#hidden;
    const denied = this.ctx.catalog.entries().filter((e) => e.allowed === 0);
    const hidden = new Set(denied.flatMap((e) => [e.name, e.qualified_name]));
    for (const name of modelToolNames(this.ctx.operations))
      if (!this.#visibility.allowed(name, name)) hidden.add(name);
    const packs = visiblePacks(this.ctx.bundle, this.ctx.tenant, this.ctx.config.get().project_id);
    for (const pack of packs) {
      for (const tool of pack.tools)
        if (!this.broughtAllowed(pack.name, tool)) hidden.add(broughtName(pack.name, tool.name));
    }
    const packNames = new Set(packs.map((p) => p.name));
    const bundle = this.ctx.bundle;
    let withTools = skillsWithTools.get(bundle);
    if (!withTools) {
      withTools = bundle.skills.filter((skill) => skill.tools.length > 0);
      skillsWithTools.set(bundle, withTools);
    }
    for (const skill of withTools) {
      if (!packNames.has(skill.pack)) continue;
      const allowed = this.skillAllowed(skill);
      for (const tool of skill.tools)
        if (!allowed || !this.broughtAllowed(skill.name, tool))
          hidden.add(broughtName(skill.name, tool.name));
    }
    this.#hidden = hidden;
    return hidden;
  }

  private broughtAllowed(owner: string, tool: BundledTool): boolean {
    const name = broughtName(owner, tool.name);
    return this.#visibility.allowed(name, qualifiedName(normalizeTool({ ...tool, name, namespace: owner })));
  }

  private skillAllowed(skill: BundledSkill): boolean {
    return skillPolicy(this.ctx.config.get())(skill.name, skill.id);
  }

  /** A name the model may call now or after activation: an allowed catalog tool or builtin. */
  private usable(name: string): boolean {
    const op = this.ctx.operations.find((o) => o.name === name);
    // Other Trove operations (events, tool_resolve …) are the agent's API, never a hidden tool.
    if (op) return op.model ? this.#visibility.allowed(name, name) : true;
    return this.ctx.catalog.find(name) !== undefined;
  }
}

/** Tool names a skill's metadata refers to. */
function referencedTools(skill: BundledSkill): string[] {
  const names: string[] = [];
  const tools = skill.extra.tools;
  if (Array.isArray(tools)) {
    for (const entry of tools) {
      const name =
        typeof entry === "string"
          ? entry
          : entry && typeof entry === "object"
            ? (entry as Record<string, unknown>).tool
            : undefined;
      if (typeof name === "string") names.push(name);
    }
  }
  const allowed = skill.extra["allowed-tools"];
  const list = typeof allowed === "string" ? allowed.split(/\s+/) : Array.isArray(allowed) ? allowed : [];
  for (const item of list) if (typeof item === "string") names.push(item);
  return names.flatMap((n) => TOOL_REF.exec(n.trim())?.[0] ?? []);
}
