// The learning evaluation of `npm run bench:search`: the worker as deployed (both object classes,
// two tenants), driven only through its public HTTP API. History: a query set replayed in several
// sessions of one tenant (search, then resolve the expected tool, as an agent whose model picked
// it would). Then the test set is searched in a new session of that tenant (learned) and of
// another tenant (control, which must equal cold).
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";
import { bundleWorker, wranglerCompatibility } from "../scripts/bundle-worker";

const KEYS: Record<string, string> = { learned: "eval-a:key-a", control: "eval-b:key-b" };
/** Further tenants, `attack-0` … `attack-11` (bench/learning-safety.ts gives each attack its own). */
for (let i = 0; i < 12; i++) KEYS[`attack-${i}`] = `eval-attack-${i}:key-attack-${i}`;

export interface Replay {
  /** Runs `op` on session `sid` of the tenant; throws on an error answer. */
  op<T>(tenant: string, sid: string, name: string, input: unknown): Promise<T>;
  /** GET on a tenant route (`/v1/learning`…). */
  get<T>(tenant: string, path: string): Promise<T>;
  dispose(): Promise<void>;
}

export async function startReplay(): Promise<Replay> {
  const mf = new Miniflare({
    modules: true,
    script: await bundleWorker("src/index.ts"),
    ...wranglerCompatibility(),
    durableObjects: {
      SESSIONS: { className: "SessionObject", useSQLite: true },
      LEARNING: { className: "LearningObject", useSQLite: true },
      CATALOGS: { className: "CatalogObject", useSQLite: true },
      CATALOG_LISTS: { className: "CatalogListObject", useSQLite: true },
    },
    bindings: { TROVE_API_KEYS: Object.values(KEYS).join(",") },
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.resume();
      if (process.env.DEBUG_REPLAY) stderr.pipe(process.stderr);
      else stderr.resume();
      if (process.env.DEBUG_REPLAY) stdout.pipe(process.stdout);
    },
  });
  await mf.ready;
  const request = async <T>(tenant: string, method: string, path: string, body?: unknown) => {
    const key = KEYS[tenant]?.split(":")[1];
    const res = await mf.dispatchFetch(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  return {
    op: (tenant, sid, name, input) => request(tenant, "POST", `/v1/sessions/${sid}/${name}`, input),
    get: (tenant, path) => request(tenant, "GET", path),
    dispose: () => mf.dispose(),
  };
}
