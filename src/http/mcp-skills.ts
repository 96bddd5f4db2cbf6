// The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`, as ext-skills
// specification/stable/skills.mdx states it): skills/list, skills/get, resources/directory/read and
// resources/read of skill:// URIs. Every answer comes from Trove's operations run with the session's
// policy, so a skill the session may not see answers exactly as one that does not exist.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import { lessonAgentName, lessonNameOfAgentName } from "../lessons/lesson";
import { LEARNED_PACK } from "../lessons/session-lessons";
import type { OpResult } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { skillReadFile } from "../ops/skill-load-ops";
import { fileMime } from "../ops/skill-manifest";
import { skillGet, skillList } from "../ops/skill-ops";
import { MAX_READ_LENGTH } from "../packs/file-pages";

/** The extension's identifier and settings, under `capabilities.extensions` (SEP-2640 "Capability Negotiation"). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
export const SKILLS_SETTINGS = { directoryRead: true };

/** Every file of a skill: `skill://<pack>/<name>/<path>`, the skill's path being its qualified id. */
export const SKILL_FILE_TEMPLATE = "skill://{pack}/{name}/{+path}";

/** What the extension needs of the MCP server around it (mcp.ts). */
export interface McpKit {
  /** Runs an operation on the session with its policy: Trove's 4xx as values, anything worse thrown. */
  run(op: Operation, args: unknown): Promise<OpResult>;
  /** A JSON-RPC error as it goes on the wire. */
  error(code: number, message: string, data?: unknown): Error;
}

const INVALID_PARAMS = -32602;
const SKILLS_PER_PAGE = 50;
/**
 * SEP-2640 requires the CacheableResult hints on both results. A session's skills change with its
 * config (a policy can hide one at any time), so a listing is stale at once; entries depend on the
 * key's tenant and the session, so they are never shared.
 */
const CACHE_HINTS = { ttlMs: 0, cacheScope: "private" } as const;

type SkillListOutput = z.input<typeof skillList.output>;
type Manifest = NonNullable<SkillListOutput["skills"][number]["manifest"]>;

/**
 * A 1-based page from an MCP cursor (the string form of a page number we gave out); null when the
 * cursor is not one.
 */
export function pageOf(cursor: string | undefined): number | null {
  if (cursor === undefined) return 1;
  const page = Number(cursor);
  return Number.isSafeInteger(page) && page >= 1 && String(page) === cursor ? page : null;
}

/** A skill:// URI: the skill's qualified id and the path after it ("" for the skill's folder). */
function parseSkillUri(uri: string): { id: string; pack: string; name: string; path: string } | null {
  if (!uri.startsWith("skill://")) return null;
  // Trove's URIs are not percent-encoded; an encoded one names the same file.
  const decode = (segment: string) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  };
  const [pack, segment, ...rest] = uri.slice("skill://".length).split("/").map(decode);
  if (!pack || !segment) return null;
  // A learned skill's segment is its name as Agent Skills allow one (skillPath).
  const name = pack === LEARNED_PACK ? lessonNameOfAgentName(segment) : segment;
  if (name === null) return null;
  return { id: `${pack}/${name}`, pack, name, path: rest.join("/") };
}

/**
 * Where a skill is served: `<pack>/<name>`, its qualified id, except that a learned skill's name
 * (`learned.<type>.<hash>`) is written as Agent Skills allow a name, since the extension requires
 * the last segment to be the frontmatter's name (SEP-2640 "Resource Mapping").
 */
function skillPath(id: string): string {
  const name = id.slice(LEARNED_PACK.length + 1);
  return id.startsWith(`${LEARNED_PACK}/`) ? `${LEARNED_PACK}/${lessonAgentName(name) ?? name}` : id;
}

/** A Skill entry (SEP-2640 "Skill Entries") from Trove's manifest: digests as `sha256:<hex>`. */
function entryOf(id: string, manifest: Manifest) {
  const root = `skill://${skillPath(id)}`;
  return {
    uri: `${root}/SKILL.md`,
    frontmatter: manifest.frontmatter,
    resources: manifest.files.map((f) => ({
      uri: `${root}/${f.path}`,
      digest: `sha256:${f.sha256}`,
      size: f.bytes,
    })),
  };
}

/** The manifest of the skill `id`, when the session can see it and the extension serves it. */
async function manifestOf(kit: McpKit, target: { id: string; pack: string; name: string }) {
  const origin = target.pack === LEARNED_PACK ? "learned" : "agent_skills";
  const args = { pack: target.pack, name: target.name, origin, manifest: true, page_size: 1 };
  const result = await kit.run(skillList as Operation, args);
  if (!result.ok) return null;
  const skill = (result.value as SkillListOutput).skills[0];
  return skill?.id === target.id && skill.manifest ? skill.manifest : null;
}

const ListSkillsRequest = z.object({
  method: z.literal("skills/list"),
  params: z.looseObject({ cursor: z.string().optional() }).optional(),
});

const GetSkillRequest = z.object({
  method: z.literal("skills/get"),
  params: z.looseObject({ uri: z.string() }),
});

const ReadDirectoryRequest = z.object({
  method: z.literal("resources/directory/read"),
  params: z.looseObject({ uri: z.string(), cursor: z.string().optional() }),
});

/**
 * skills/list, skills/get and resources/directory/read on `server`, whose `capabilities.extensions`
 * must declare SKILLS_EXTENSION with SKILLS_SETTINGS.
 */
export function registerSkillsExtension(server: Server, kit: McpKit): void {
  server.setRequestHandler(ListSkillsRequest, async (request) => {
    const cursor = request.params?.cursor;
    const page = pageOf(cursor);
    if (page === null) throw kit.error(INVALID_PARAMS, "Invalid cursor", { cursor });
    // Every skill the session sees: Agent Skills and learned skills have a manifest, other
    // formats none (a page may then hold fewer entries than SKILLS_PER_PAGE).
    const args = { page, page_size: SKILLS_PER_PAGE, manifest: true };
    const result = await kit.run(skillList as Operation, args);
    if (!result.ok) throw kit.error(INVALID_PARAMS, result.error.message, { error: result.error });
    const { skills, total } = result.value as SkillListOutput;
    return {
      resultType: "complete",
      // An entry is whole or absent: a page never splits a skill's files (SEP-2640 "Listing Skills").
      skills: skills.flatMap((s) => (s.manifest ? [entryOf(s.id, s.manifest)] : [])),
      ...(page * SKILLS_PER_PAGE < total ? { nextCursor: String(page + 1) } : {}),
      ...CACHE_HINTS,
    };
  });

  server.setRequestHandler(GetSkillRequest, async (request) => {
    const { uri } = request.params;
    // One answer for a skill that does not exist, one the session may not see, and a URI that is
    // not a SKILL.md (SEP-2640 "Getting a Skill": -32602).
    const notServed = () => kit.error(INVALID_PARAMS, `No skill is served at ${uri}`, { uri });
    const target = parseSkillUri(uri);
    if (target?.path !== "SKILL.md") throw notServed();
    const manifest = await manifestOf(kit, target);
    if (!manifest) throw notServed();
    return { resultType: "complete", skill: entryOf(target.id, manifest), ...CACHE_HINTS };
  });

  server.setRequestHandler(ReadDirectoryRequest, async (request) => {
    const { uri, cursor } = request.params;
    // Every directory fits one page: a cursor is never given out.
    if (cursor !== undefined) throw kit.error(INVALID_PARAMS, "Invalid cursor", { cursor });
    const notDirectory = () => kit.error(INVALID_PARAMS, `Not a directory resource: ${uri}`, { uri });
    const target = parseSkillUri(uri);
    if (!target || target.path.endsWith("/")) throw notDirectory();
    const manifest = await manifestOf(kit, target);
    if (!manifest) throw notDirectory();
    const children = directoryChildren(target.id, target.path, manifest);
    // The skill's folder is a directory even if empty; a path below it is one when files are under it.
    if (target.path !== "" && children.length === 0) throw notDirectory();
    return { resultType: "complete", resources: children };
  });
}

/** The direct children of `dir` ("" for the skill's folder), files and subdirectories, by name. */
function directoryChildren(id: string, dir: string, manifest: Manifest) {
  const root = `skill://${skillPath(id)}`;
  const prefix = dir === "" ? "" : `${dir}/`;
  const children = new Map<string, { uri: string; name: string; mimeType: string; size?: number }>();
  for (const file of manifest.files) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) {
      children.set(rest, {
        uri: `${root}/${file.path}`,
        name: rest,
        mimeType: fileMime(file.path),
        size: file.bytes,
      });
    } else {
      const name = rest.slice(0, slash);
      children.set(`${name}/`, { uri: `${root}/${prefix}${name}`, name, mimeType: "inode/directory" });
    }
  }
  return [...children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

type ReadAnswer = { ok: true; content: string; mime: string } | { ok: false; code: string; message: string };

/** A bundled file whole, page after page of skill_read_file. */
async function readWhole(kit: McpKit, id: string, path: string, base64: boolean): Promise<ReadAnswer> {
  let content = "";
  for (let offset = 0; ; ) {
    const args = { skill: id, path, offset, length: MAX_READ_LENGTH, base64 };
    const result = await kit.run(skillReadFile as Operation, args);
    if (!result.ok) return { ok: false, code: result.error.code, message: result.error.message };
    const page = result.value as z.input<typeof skillReadFile.output>;
    if (page.skill !== id) return { ok: false, code: "unknown_file", message: "" };
    content += page.content;
    if (page.next_offset === null) return { ok: true, content, mime: page.mime };
    offset = page.next_offset;
  }
}

/**
 * resources/read of a skill:// URI: SKILL.md as skill_get serves it (a read counts as a use, as for
 * trove:// skills), any other file as skill_read_file does, text as `text` and binary as base64
 * `blob`. The bytes are those the entry's digests cover.
 */
export async function readSkillResource(kit: McpKit, uri: string, notFound: () => Error) {
  const target = parseSkillUri(uri);
  if (!target || target.path === "") throw notFound();
  if (target.path === "SKILL.md") {
    const args = { names: [target.id], format: "raw", manifest: true };
    const result = await kit.run(skillGet as Operation, args);
    if (!result.ok) throw notFound();
    const record = (result.value as z.input<typeof skillGet.output>).skills[0];
    const text = record?.id === target.id ? record.manifest?.skill_md : undefined;
    if (text === undefined) throw notFound();
    return { contents: [{ uri, mimeType: "text/markdown", text }] };
  }
  const text = await readWhole(kit, target.id, target.path, false);
  if (text.ok) return { contents: [{ uri, mimeType: text.mime, text: text.content }] };
  if (text.code !== "unsupported_file") throw notFound();
  const blob = await readWhole(kit, target.id, target.path, true);
  if (blob.ok) return { contents: [{ uri, mimeType: blob.mime, blob: blob.content }] };
  // Listed in the skill's entry, but over the bundle's size limit: there are no bytes to serve.
  throw kit.error(INVALID_PARAMS, `Resource not served: ${blob.message}`, { uri });
}
