// Isolation, every read against every other cell: two tenants × two projects, each with its own
// catalog, tenant- and project-scoped packs (skills, files, tools) and events, all marked with
// unique words. Every read operation — state, session_get, context in every format, tool_search of
// every type, the skill and pack reads, events, MCP tools/list and resources/list — answers with
// nothing of another cell: no foreign marker in any serialized answer, and asking for a foreign
// skill, pack, file or tool by name answers exactly like asking for one that never existed.
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import { KEY_A, KEY_B, newSid } from "../support/http";
import { appCall, appOp, checkStorage, inObject, LONG, quietly, runs } from "./support";

// Over a thousand requests: through the worker's app, not SELF.fetch (see appCall).
const call = (method: string, path: string, body: unknown, key: string) => appCall(method, path, body, key);
const op = (sid: string, name: string, body: unknown, key: string) => appOp(sid, name, body, key);

interface Cell {
  tenant: "tenant-a" | "tenant-b";
  key: string;
  project: "p1" | "p2";
  /** The marker of the cell's project pack and of its own catalog. */
  projectMarker: string;
  catalogMarker: string;
}

const GLOBAL = "mkglobal";
const TENANT_MARKER = { "tenant-a": "mkalpha", "tenant-b": "mkbravo" } as const;
const CELLS: Cell[] = [
  { tenant: "tenant-a", key: KEY_A, project: "p1", projectMarker: "mkcharlie", catalogMarker: "mkgolf" },
  { tenant: "tenant-a", key: KEY_A, project: "p2", projectMarker: "mkdelta", catalogMarker: "mkhotel" },
  { tenant: "tenant-b", key: KEY_B, project: "p1", projectMarker: "mkecho", catalogMarker: "mkindia" },
  { tenant: "tenant-b", key: KEY_B, project: "p2", projectMarker: "mkfoxtrot", catalogMarker: "mkjuliet" },
];
const ALL_MARKERS = [
  GLOBAL,
  ...Object.values(TENANT_MARKER),
  ...CELLS.flatMap((c) => [c.projectMarker, c.catalogMarker]),
];
const visibleMarkers = (c: Cell) => [GLOBAL, TENANT_MARKER[c.tenant], c.projectMarker, c.catalogMarker];
const foreignMarkers = (c: Cell) => ALL_MARKERS.filter((m) => !visibleMarkers(c).includes(m));

/** A pack named `<marker>-pack`: attachable (entry doc, a doc, tools) with a Penguiflow and an Agent skill. */
function packFiles(marker: string, yaml: string) {
  const dir = `${marker}-pack`;
  return [
    { path: `${dir}/pack.yaml`, content: `name: ${dir}\n${yaml}` },
    {
      path: `${dir}/SKILL.md`,
      content: `---\nname: ${marker} pack\ndescription: The ${marker} capability pack, a guide tool kit.\n---\n# ${marker}\nRead docs/${marker}.md, then call \`${marker}_tool\`.\n`,
    },
    { path: `${dir}/docs/${marker}.md`, content: `# ${marker} doc\nSecret of ${marker}.\n` },
    {
      path: `${dir}/tools.json`,
      content: JSON.stringify([{ name: `${marker}_tool`, description: `The ${marker} guide tool` }]),
    },
    {
      path: `${dir}/${marker}.skill.json`,
      content: JSON.stringify({
        name: `${marker}_skill`,
        title: `${marker} skill`,
        trigger: `When a guide for ${marker} tool work is needed`,
        steps: [`Do the ${marker} step`],
      }),
    },
    {
      path: `${dir}/${marker}-guide/SKILL.md`,
      content: `---\nname: ${marker}-guide\ndescription: The ${marker} guide skill for tool work.\n---\n# ${marker} guide\nSee references/${marker}-ref.md.\n`,
    },
    { path: `${dir}/${marker}-guide/references/${marker}-ref.md`, content: `${marker} reference text\n` },
  ];
}

function matrixBundle(): Bundle {
  const { bundle, errors } = compilePacks([
    ...packFiles(GLOBAL, "scope: global\n"),
    ...Object.entries(TENANT_MARKER).flatMap(([tenant, m]) =>
      packFiles(m, `scope: tenant\ntenant_id: ${tenant}\n`),
    ),
    ...CELLS.flatMap((c) =>
      packFiles(c.projectMarker, `scope: project\ntenant_id: ${c.tenant}\nproject_id: ${c.project}\n`),
    ),
  ]);
  expect(errors).toEqual([]);
  return bundle;
}
const BUNDLE = matrixBundle();

/**
 * Foreign markers asked for by name: all of them in the long suite. In `npm test` one per cell, a
 * different kind for each: the other tenant's pack, this tenant's other project's pack, the other
 * tenant's same project's pack, and another cell's own catalog.
 */
const probed = (c: Cell): string[] => {
  if (LONG) return foreignMarkers(c);
  const other = (pick: (o: Cell) => boolean) => CELLS.find((o) => o !== c && pick(o)) as Cell;
  const kinds = [
    TENANT_MARKER[c.tenant === "tenant-a" ? "tenant-b" : "tenant-a"],
    other((o) => o.tenant === c.tenant).projectMarker,
    other((o) => o.project === c.project).projectMarker,
    other((o) => o.tenant !== c.tenant && o.project !== c.project).catalogMarker,
  ];
  return [kinds[CELLS.indexOf(c) % kinds.length] as string];
};

/** Sessions: the same sid in both tenants, one sid per project. */
function sessionsFor(): Map<Cell, string> {
  const bySid = { p1: newSid(), p2: newSid() };
  return new Map(CELLS.map((c) => [c, bySid[c.project]]));
}

/**
 * Points the cell's object at the test bundle. An object idle for a few seconds is evicted and its
 * successor starts with the built-in bundle (as after a deploy), so this runs before every phase.
 */
const useBundle = (cell: Cell, sid: string) =>
  inObject(
    sid,
    (obj: SessionObject) => {
      obj.bundle = BUNDLE;
    },
    cell.tenant,
  );

async function setUp(cell: Cell, sid: string): Promise<void> {
  await useBundle(cell, sid);
  const m = cell.catalogMarker;
  const put = await call(
    "PUT",
    `/v1/sessions/${sid}`,
    { project_id: cell.project, policy: { approval: [`${m}.gated`] } },
    cell.key,
  );
  expect(put.status).toBe(200);
  const tools = [
    { name: `${m}.search`, description: `Search the ${m} records (guide tool)`, tags: [m] },
    { name: `${m}.gated`, description: `A gated ${m} tool`, loading_mode: "always" as const },
  ];
  expect((await op(sid, "catalog_sync", { tools }, cell.key)).status).toBe(200);
  const packs = (await op(sid, "pack_list", {}, cell.key)).json.packs.map(
    (p: { pack_id: string }) => p.pack_id,
  );
  expect(packs.sort()).toEqual(
    visibleMarkers(cell)
      .slice(0, 3)
      .map((x) => `${x}-pack`)
      .sort(),
  );
  for (const pack_id of packs) {
    expect((await op(sid, "pack_attach", { pack_id }, cell.key)).status).toBe(200);
    expect((await op(sid, "pack_enable_tools", { pack_id }, cell.key)).status).toBe(200);
  }
  const writes: [string, unknown][] = [
    ["tool_search", { query: `${m} records` }],
    ["tool_activate", { names: [`${m}.search`], reason: `${m} reason` }],
    ["tool_resolve", { name: `${m}.gated`, args: { note: m } }],
    ["skill_search", { query: `${cell.projectMarker} guide` }],
    ["skill_load", { name: `${cell.projectMarker}-guide` }],
    ["skill_get", { names: [`${cell.projectMarker}_skill`] }],
  ];
  for (const [name, body] of writes) expect((await op(sid, name, body, cell.key)).status, name).toBe(200);
}

const mcp = (sid: string, key: string, method: string, params: Record<string, unknown> = {}) =>
  appCall(
    "POST",
    `/v1/sessions/${sid}/mcp`,
    { jsonrpc: "2.0", id: 1, method, params },
    key,
    "application/json, text/event-stream",
  );

/** Everything a cell can read about itself, serialized; foreign names asked for are checked apart. */
async function readEverything(cell: Cell, sid: string): Promise<string[]> {
  await useBundle(cell, sid);
  const seen: string[] = [];
  const read = async (name: string, body: unknown) => {
    const res = await op(sid, name, body, cell.key);
    expect(
      res.status,
      `${cell.tenant}/${cell.project} ${name} ${JSON.stringify(body)}: ${JSON.stringify(res.json)}`,
    ).toBe(200);
    seen.push(`${name} ${JSON.stringify(body)} → ${JSON.stringify(res.json)}`);
    return res.json;
  };
  seen.push(JSON.stringify((await call("GET", `/v1/sessions/${sid}`, undefined, cell.key)).json));
  await read("session_get", {});
  await read("state", {});
  let since = 0;
  for (;;) {
    const page = await read("events", { since, limit: 500 });
    if (page.events.length === 0) break;
    since = page.next_cursor;
  }
  for (const format of ["anthropic", "openai", "mcp", "json"]) {
    await read("context", { format });
    await read("context", { format, query: "guide skill for tool work" });
  }
  for (const search_type of ["fts", "regex", "exact"]) {
    for (const query of ["guide tool", ".", "mk", `${cell.catalogMarker}.search`, "search"]) {
      await read("tool_search", {
        query,
        search_type,
        limit: 20,
        include_always_loaded: true,
        format: "anthropic",
      });
      await read("skill_search", { query, search_type, limit: 20 });
    }
  }
  for (const filter of [
    {},
    { scope: "global" },
    { scope: "tenant" },
    { scope: "project" },
    { origin: "penguiflow" },
  ]) {
    await read("skill_list", { page_size: 100, ...filter });
  }
  await read("skill_directory", {});
  const own = visibleMarkers(cell).slice(0, 3);
  for (const m of own) {
    await read("skill_get", { names: [`${m}_skill`, `${m}-guide`], format: "injection" });
    await read("skill_read_file", { skill: `${m}-guide`, path: `references/${m}-ref.md` });
    await read("pack_open_docs", { pack_id: `${m}-pack` });
    await read("pack_read_file", { pack_id: `${m}-pack`, path: `docs/${m}.md` });
    await read("skill_list", { page_size: 100, pack: `${m}-pack` });
  }
  const tools = await mcp(sid, cell.key, "tools/list");
  expect(tools.status).toBe(200);
  seen.push(JSON.stringify(tools.json));
  let cursor: string | undefined;
  do {
    const res = await mcp(sid, cell.key, "resources/list", cursor ? { cursor } : {});
    expect(res.status).toBe(200);
    seen.push(JSON.stringify(res.json));
    cursor = res.json.result.nextCursor;
  } while (cursor);
  return seen;
}

/** The answer to asking for `name`, with `name` itself blanked out: the same as for a name never used. */
const blanked = (json: unknown, name: string) => JSON.stringify(json).replaceAll(name, "∅");

/** Asking for another cell's things by name answers exactly like asking for things that never existed. */
async function probeForeign(cell: Cell, sid: string, marker: string): Promise<void> {
  await useBundle(cell, sid);
  const never = "mkzulu";
  const probes: [string, (m: string) => Record<string, unknown>][] = [
    ["skill_get", (m) => ({ names: [`${m}_skill`] })],
    ["skill_load", (m) => ({ name: `${m}-guide` })],
    ["skill_load", (m) => ({ path: `${m}-pack/${m}-guide` })],
    ["skill_read_file", (m) => ({ skill: `${m}-guide`, path: `references/${m}-ref.md` })],
    ["pack_attach", (m) => ({ pack_id: `${m}-pack` })],
    ["pack_open_docs", (m) => ({ pack_id: `${m}-pack` })],
    ["pack_read_file", (m) => ({ pack_id: `${m}-pack`, path: `docs/${m}.md` })],
    ["pack_enable_tools", (m) => ({ pack_id: `${m}-pack` })],
    ["tool_resolve", (m) => ({ name: `${m}-pack__${m}_tool` })],
    ["tool_resolve", (m) => ({ name: `${m}.search` })],
    ["tool_activate", (m) => ({ names: [`${m}.search`] })],
    ["skill_list", (m) => ({ pack: `${m}-pack` })],
    ["tool_search", (m) => ({ query: m, search_type: "regex", include_always_loaded: true })],
    ["tool_search", (m) => ({ query: `${m}.search`, search_type: "exact" })],
    ["tool_search", (m) => ({ query: `${m} guide`, include_always_loaded: true })],
    ["skill_search", (m) => ({ query: m, search_type: "regex" })],
    ["skill_search", (m) => ({ query: `${m}_skill`, search_type: "exact" })],
    ["skill_search", (m) => ({ query: `${m} guide` })],
  ];
  for (const [name, body] of probes) {
    const foreign = await op(sid, name, body(marker), cell.key);
    const missing = await op(sid, name, body(never), cell.key);
    const what = `${cell.tenant}/${cell.project} ${name} ${JSON.stringify(body(marker))}`;
    expect(foreign.status, what).toBe(missing.status);
    expect(blanked(foreign.json, marker), what).toBe(blanked(missing.json, never));
  }
  const read = async (m: string) =>
    mcp(sid, cell.key, "resources/read", { uri: `trove://skills/${m}-pack/${m}_skill` });
  expect(blanked((await read(marker)).json, marker)).toBe(blanked((await read(never)).json, never));
}

describe("isolation matrix: 2 tenants × 2 projects × every read", () => {
  it(`${runs(1, 5)} round(s): no answer of any cell names anything of another cell`, async () => {
    for (let round = 0; round < runs(1, 5); round++) {
      const sessions = sessionsFor();
      await quietly(async () => {
        for (const [cell, sid] of sessions) await setUp(cell, sid);
        for (const [cell, sid] of sessions) {
          const text = (await readEverything(cell, sid)).join("\n");
          for (const m of foreignMarkers(cell)) {
            expect(
              text.includes(m),
              `${cell.tenant}/${cell.project} sees ${m}: …${text.slice(Math.max(0, text.indexOf(m) - 300), text.indexOf(m) + 100)}…`,
            ).toBe(false);
          }
          // Not vacuous: each cell sees all of its own.
          for (const m of visibleMarkers(cell))
            expect(text, `${cell.tenant}/${cell.project} misses ${m}`).toContain(m);
          await useBundle(cell, sid);
          const stored = await inObject(sid, (obj: SessionObject) => checkStorage(obj), cell.tenant);
          expect(stored.skills).toBe(6);
          // Storage itself holds nothing of other cells: skills, files and tools never entered it.
          const dump = await inObject(
            sid,
            (obj: SessionObject) =>
              JSON.stringify([
                obj.sql.all(`SELECT * FROM trove_skills`),
                obj.sql.all(`SELECT * FROM trove_tools`),
                obj.sql.all(`SELECT * FROM trove_events`),
                obj.sql.all(`SELECT * FROM trove_packs`),
                obj.sql.all(`SELECT * FROM trove_meta`),
              ]),
            cell.tenant,
          );
          for (const m of foreignMarkers(cell))
            expect(dump.includes(m), `storage of ${cell.tenant}/${cell.project} holds ${m}`).toBe(false);
          // Asked by name (after the dump: a probe's search query is itself recorded as an event).
          for (const m of probed(cell)) await probeForeign(cell, sid, m);
        }
      });
    }
  }, 600_000);

  it("moving a session to another project takes the old project's packs, skills and tools away", async () => {
    const [a1, a2] = CELLS as [Cell, Cell];
    const sid = newSid();
    await quietly(async () => {
      await setUp(a1, sid);
      const put = await call("PUT", `/v1/sessions/${sid}`, { project_id: "p2" }, KEY_A);
      expect(put.status).toBe(200);
      const state = (await op(sid, "state", {}, KEY_A)).json;
      expect(state.packs.map((p: { pack_id: string }) => p.pack_id).sort()).toEqual([
        "mkalpha-pack",
        `${GLOBAL}-pack`,
      ]);
      const seen: string[] = [];
      for (const [name, body] of [
        ["state", {}],
        ["pack_list", {}],
        ["skill_list", { page_size: 100 }],
        ["skill_directory", {}],
        ["skill_search", { query: "guide" }],
        ["tool_search", { query: ".", search_type: "regex", include_always_loaded: true }],
        ["context", { format: "anthropic", query: "guide skill for tool work" }],
      ] as [string, unknown][]) {
        seen.push(JSON.stringify((await op(sid, name, body, KEY_A)).json));
      }
      const text = seen.join("\n");
      expect(text).not.toContain(a1.projectMarker);
      expect(text).toContain(a2.projectMarker);
      expect(
        (await op(sid, "tool_resolve", { name: `${a1.projectMarker}-pack__${a1.projectMarker}_tool` }, KEY_A))
          .status,
      ).toBe(404);
      const events = (await op(sid, "events", { limit: 500 }, KEY_A)).json.events;
      expect(events).toContainEqual(
        expect.objectContaining({
          type: "pack_detached",
          data: { pack_id: `${a1.projectMarker}-pack`, reason: "unavailable" },
        }),
      );
      await inObject(sid, (obj: SessionObject) => checkStorage(obj));
    });
  });
});
