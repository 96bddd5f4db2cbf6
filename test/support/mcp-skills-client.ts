// The official SDK client on a session's MCP endpoint through the worker, with the MCP Skills
// extension's requests (SEP-2640) and the checks a host makes of an entry: each file's size and
// digest against the bytes resources/read returns, and SKILL.md's frontmatter against the entry's.
import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { expect } from "vitest";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { KEY_A } from "./http";

export const mcpUrl = (sid: string) => new URL(`https://trove.test/v1/sessions/${sid}/mcp`);

export async function connect(sid: string, key = KEY_A): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(sid), {
    fetch: (url, init) => SELF.fetch(url, init),
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  // The default validator (ajv) compiles with new Function, which workerd forbids.
  const client = new Client(
    { name: "trove-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport);
  return client;
}

/** A Skill entry as SEP-2640 defines it; no other member is expected. */
export const SkillEntry = z.strictObject({
  uri: z.string(),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.array(
    z.strictObject({
      uri: z.string(),
      digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
      size: z.number().int().min(0),
    }),
  ),
});
export type Entry = z.infer<typeof SkillEntry>;
const Cacheable = {
  resultType: z.literal("complete"),
  ttlMs: z.number().int().min(0),
  cacheScope: z.enum(["public", "private"]),
};
const ListSkillsResult = z.strictObject({
  skills: z.array(SkillEntry),
  nextCursor: z.string().optional(),
  ...Cacheable,
});
export const GetSkillResult = z.strictObject({ skill: SkillEntry, ...Cacheable });
const DirectoryResult = z.strictObject({
  resultType: z.literal("complete"),
  resources: z.array(
    z.strictObject({ uri: z.string(), name: z.string(), mimeType: z.string(), size: z.number().optional() }),
  ),
  nextCursor: z.string().optional(),
});

export const listSkills = (client: Client, cursor?: string) =>
  client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } }, ListSkillsResult);
export const getSkill = (client: Client, uri: string) =>
  client.request({ method: "skills/get", params: { uri } }, GetSkillResult);
export const readDirectory = (client: Client, uri: string) =>
  client.request({ method: "resources/directory/read", params: { uri } }, DirectoryResult);

/** Every entry of skills/list, page after page. */
export async function allSkills(client: Client): Promise<{ skills: Entry[]; pages: number }> {
  const skills: Entry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await listSkills(client, cursor);
    skills.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { skills, pages };
}

/** The bytes resources/read returns for `uri`: text as UTF-8, blob decoded. */
export async function readBytes(
  client: Client,
  uri: string,
): Promise<{ bytes: Uint8Array; mimeType?: string; text?: string }> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const [content] = contents as [{ uri: string; mimeType?: string; text?: string; blob?: string }];
  expect(content.uri).toBe(uri);
  if (content.blob !== undefined) {
    return { bytes: Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0)), mimeType: content.mimeType };
  }
  return { bytes: new TextEncoder().encode(content.text), mimeType: content.mimeType, text: content.text };
}

export async function sha256(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A SKILL.md's frontmatter as a host's YAML parser reads it. */
export function frontmatterOf(skillMd: string): unknown {
  const lines = skillMd.split("\n");
  expect(lines[0]).toBe("---");
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  return parseYaml(lines.slice(1, end).join("\n"));
}

/** Checks each file of `entry` as a host would: size, digest and, for SKILL.md, the frontmatter. */
export async function verify(client: Client, entry: Entry): Promise<Map<string, Uint8Array>> {
  const read = new Map<string, Uint8Array>();
  expect(entry.resources[0]?.uri).toBe(entry.uri);
  for (const resource of entry.resources) {
    const { bytes, text } = await readBytes(client, resource.uri);
    expect(bytes.length, resource.uri).toBe(resource.size);
    expect(await sha256(bytes), resource.uri).toBe(resource.digest);
    if (resource.uri === entry.uri) expect(frontmatterOf(text as string)).toEqual(entry.frontmatter);
    read.set(resource.uri, bytes);
  }
  return read;
}
