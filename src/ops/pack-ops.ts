// Capability packs (Capability Packs spec): list what may be attached, attach and detach (the
// sticky Active Pack Set), then the model's progressive disclosure — open the entry doc, read
// files a page at a time, enable the pack's tools.
import { z } from "zod";
import { TroveError } from "../errors";
import { packSource } from "../packs/attachments";
import type { BundledPack } from "../packs/bundle";
import {
  PAGE_ERRORS,
  PageInput,
  PageOutput,
  readPage,
  relativeFilePath,
  unsupportedFile,
} from "../packs/file-pages";
import { visibilityFor } from "../tools/policy";
import { attachablePacks, checkedRecords } from "./brought-tools";
import type { OpContext } from "./operation";
import { defineOp } from "./operation";
import { TextGuard } from "./text-guard";

const PackId = z.string().min(1).max(64).describe("The pack's id, as pack_list and context show it");

/** The entry doc's first page in pack_open_docs; the rest is read with pack_read_file. */
const ENTRY_PAGE = 32_000;

const unknownPack = (id: string) =>
  new TroveError("unknown_pack", 404, `no pack "${id}" is available to this session`, { field: "pack_id" });

/** A pack this session may attach, or 404. */
function attachable(
  ctx: OpContext,
  id: string,
): BundledPack & { capability: NonNullable<BundledPack["capability"]> } {
  const pack = attachablePacks(ctx).find((p) => p.name === id);
  if (!pack?.capability) throw unknownPack(id);
  return pack as BundledPack & { capability: NonNullable<BundledPack["capability"]> };
}

/** An attached pack, or 404 (unknown) / 409 (not attached). */
function attached(ctx: OpContext, id: string) {
  const pack = attachable(ctx, id);
  if (!ctx.attachments.pack(id)) {
    throw new TroveError("pack_not_attached", 409, `pack "${id}" is not attached: attach it first`, {
      field: "pack_id",
    });
  }
  return pack;
}

/** The pack's metadata as injected (spec §5.2): never its files or tools. */
export const PackMetadata = z.object({
  pack_id: z.string(),
  name: z.string(),
  description: z.string(),
  has_tools: z.boolean().describe("The pack brings tools (pack_enable_tools)"),
});

export function packMetadata(pack: BundledPack, guard: TextGuard): z.infer<typeof PackMetadata> {
  return {
    pack_id: pack.name,
    name: pack.capability?.name ?? pack.name,
    description: guard.text(pack.capability?.description ?? pack.description ?? "", { pack }),
    has_tools: pack.tools.length > 0,
  };
}

export const packList = defineOp({
  name: "pack_list",
  summary: "Capability packs this session may attach, and whether each is attached",
  tag: "packs",
  writes: false,
  input: z.strictObject({}),
  output: z.object({ packs: z.array(PackMetadata.extend({ attached: z.boolean() })) }),
  errors: [],
  example: {
    input: {},
    output: {
      packs: [
        {
          pack_id: "incident",
          name: "incident-response",
          description: "Runbooks and tools for production incidents",
          has_tools: true,
          attached: false,
        },
      ],
    },
  },
  handler(ctx) {
    const guard = new TextGuard(ctx);
    const on = new Set(ctx.attachments.packs().map((a) => a.pack));
    return {
      packs: attachablePacks(ctx).map((p) => ({ ...packMetadata(p, guard), attached: on.has(p.name) })),
    };
  },
});

export const packAttach = defineOp({
  name: "pack_attach",
  summary: "Attach a capability pack: its metadata is in every context until it is detached",
  tag: "packs",
  writes: true,
  idempotent: true,
  input: z.strictObject({ pack_id: PackId }),
  output: z.object({ pack_id: z.string(), attached: z.literal(true), changed: z.boolean() }),
  errors: ["unknown_pack"],
  example: {
    input: { pack_id: "incident" },
    output: { pack_id: "incident", attached: true, changed: true },
  },
  handler(ctx, input) {
    attachable(ctx, input.pack_id);
    const changed = ctx.attachments.attach(input.pack_id, ctx.now);
    if (changed) ctx.events.record("pack_attached", { pack_id: input.pack_id }, ctx.now);
    return { pack_id: input.pack_id, attached: true as const, changed };
  },
});

export const packDetach = defineOp({
  name: "pack_detach",
  summary: "Detach a capability pack; the tools it brought are no longer listed",
  tag: "packs",
  writes: true,
  idempotent: true,
  input: z.strictObject({ pack_id: PackId }),
  output: z.object({ pack_id: z.string(), attached: z.literal(false), changed: z.boolean() }),
  errors: ["unknown_pack"],
  example: {
    before: [{ op: "pack_attach", input: { pack_id: "incident" } }],
    input: { pack_id: "incident" },
    output: { pack_id: "incident", attached: false, changed: true },
  },
  handler(ctx, input) {
    const was = ctx.attachments.pack(input.pack_id);
    if (!was) attachable(ctx, input.pack_id); // unknown → 404; known but not attached → no change
    const changed = ctx.attachments.detach(input.pack_id);
    if (changed) {
      ctx.catalog.syncSource(packSource(input.pack_id), [], visibilityFor(ctx.config.get()));
      ctx.events.record("pack_detached", { pack_id: input.pack_id, reason: "detached" }, ctx.now);
    }
    return { pack_id: input.pack_id, attached: false as const, changed };
  },
});

export const packOpenDocs = defineOp({
  name: "pack_open_docs",
  summary: "An attached pack's entry doc (first page) and the files pack_read_file can read",
  tag: "packs",
  writes: false,
  input: z.strictObject({ pack_id: PackId }),
  output: z.object({
    pack_id: z.string(),
    entry_doc: z.object(PageOutput),
    files: z.array(z.object({ path: z.string(), bytes: z.number().int(), readable: z.boolean() })),
  }),
  errors: ["unknown_pack", "pack_not_attached"],
  model: {
    description: "Open an attached capability pack's entry doc. Do this before relying on a pack.",
    shown: (has) => has.packs,
  },
  example: {
    before: [{ op: "pack_attach", input: { pack_id: "incident" } }],
    input: { pack_id: "incident" },
    output: {
      pack_id: "incident",
      entry_doc: {
        path: "SKILL.md",
        content: "---\nname: incident-response\n…",
        offset: 0,
        length: 1200,
        total: 1200,
        truncated: false,
        next_offset: null,
        mime: "text/markdown",
      },
      files: [{ path: "runbooks/sev1.md", bytes: 2048, readable: true }],
    },
  },
  handler(ctx, input) {
    const pack = attached(ctx, input.pack_id);
    const { entry, files } = pack.capability;
    const text = ctx.bundle.packFiles[`${pack.name}/${entry}`] ?? "";
    const guard = new TextGuard(ctx);
    return {
      pack_id: pack.name,
      entry_doc: readPage(entry, guard.text(text, { pack }), 0, ENTRY_PAGE),
      files: files.map((f) => ({ path: f.path, bytes: f.bytes, readable: f.text })),
    };
  },
});

const PackReadFileInput = z.strictObject({
  pack_id: PackId,
  path: z.string().min(1).max(1000).describe("Path inside the pack, as pack_open_docs lists it"),
  ...PageInput,
});

export const packReadFile = defineOp({
  name: "pack_read_file",
  summary: "Read a file of an attached pack, a page at a time",
  tag: "packs",
  writes: false,
  input: PackReadFileInput,
  output: z.object({ pack_id: z.string(), ...PageOutput }),
  errors: ["unknown_pack", "pack_not_attached", ...PAGE_ERRORS],
  model: {
    description: "Read a file of an attached capability pack (docs, resources), a page at a time.",
    input: PackReadFileInput.pick({ pack_id: true, path: true, offset: true }),
    shown: (has) => has.packs,
  },
  example: {
    before: [{ op: "pack_attach", input: { pack_id: "incident" } }],
    input: { pack_id: "incident", path: "runbooks/sev1.md" },
    output: {
      pack_id: "incident",
      path: "runbooks/sev1.md",
      content: "# SEV1\n…",
      offset: 0,
      length: 2048,
      total: 2048,
      truncated: false,
      next_offset: null,
      mime: "text/markdown",
    },
  },
  handler(ctx, input) {
    const pack = attached(ctx, input.pack_id);
    const path = relativeFilePath(input.path, "the pack");
    const listed = pack.capability.files.find((f) => f.path === path);
    if (!listed) {
      throw new TroveError("unknown_file", 404, `no file "${input.path}" in pack "${pack.name}"`, {
        field: "path",
      });
    }
    const text = ctx.bundle.packFiles[`${pack.name}/${path}`];
    if (!listed.text || text === undefined) throw unsupportedFile(path, listed.bytes);
    // Offsets count characters of the text as shown (after redaction), so pages join up.
    const shown = new TextGuard(ctx).text(text, { pack });
    return { pack_id: pack.name, ...readPage(path, shown, input.offset, input.length) };
  },
});

export const BroughtTools = z
  .array(z.object({ name: z.string(), description: z.string() }))
  .describe("Tools now in the catalog that the policy allows, by the name to call");

/** The allowed tools among `names` (a denied one is never mentioned). */
export function allowedTools(ctx: OpContext, names: readonly string[]) {
  return names.flatMap((name) => {
    const tool = ctx.catalog.find(name);
    return tool ? [{ name: tool.name, description: tool.record.description }] : [];
  });
}

export const packEnableTools = defineOp({
  name: "pack_enable_tools",
  summary: "Add an attached pack's tools (tools.json) to the session's catalog as <pack>__<tool>",
  tag: "packs",
  writes: true,
  idempotent: true,
  input: z.strictObject({ pack_id: PackId }),
  output: z.object({ pack_id: z.string(), enabled: z.literal(true), tools: BroughtTools }),
  errors: ["unknown_pack", "pack_not_attached", "invalid_pack_tools"],
  model: {
    description:
      "Enable an attached pack's tools (packs marked has_tools); they are listed from your next turn on.",
    shown: (has) => has.packsWithTools,
  },
  example: {
    before: [{ op: "pack_attach", input: { pack_id: "incident" } }],
    input: { pack_id: "incident" },
    output: {
      pack_id: "incident",
      enabled: true,
      tools: [{ name: "incident__create_ticket", description: "Open an incident ticket" }],
    },
  },
  handler(ctx, input) {
    const pack = attached(ctx, input.pack_id);
    const records = checkedRecords(pack.name, pack.tools, "pack_id");
    const result = ctx.catalog.syncSource(packSource(pack.name), records, visibilityFor(ctx.config.get()));
    ctx.attachments.markToolsEnabled(pack.name, ctx.now);
    const skipped = new Set(result.skipped);
    const tools = allowedTools(
      ctx,
      records.map((r) => r.name).filter((n) => !skipped.has(n)),
    );
    ctx.events.record("pack_tools_enabled", { pack_id: pack.name, tool_count: tools.length }, ctx.now);
    return { pack_id: pack.name, enabled: true as const, tools };
  },
});
