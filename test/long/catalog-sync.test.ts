// catalog_sync is idempotent for any catalog and config: the same catalog again (as sent, reordered,
// or with its keys in another order) writes 0 rows; a merge of any subset changes nothing; replace
// with another catalog and back restores the fingerprint and every stored row; and the FTS index
// stays exact throughout. In-object (10,000 runs in the long suite), then a few runs over HTTP.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../src/session-object";
import { call, newSid, op } from "../support/http";
import type { Tool } from "../support/search-model";
import { catalogArb, configArb } from "./catalog-model";
import { answerOf, checkStorage, inObject, quietly, runIn, runs } from "./support";

/** The same record with its keys in reverse order: canonical JSON makes it the same record. */
const reversedKeys = (t: Tool): Tool => Object.fromEntries(Object.entries(t).reverse()) as unknown as Tool;

const rows = (obj: SessionObject) =>
  obj.sql.all(
    `SELECT name, record_hash, allowed, effective_mode, provider_name, source FROM trove_tools ORDER BY name`,
  );

const scenarioArb = fc.record({
  tools: catalogArb(25),
  other: catalogArb(10),
  config: configArb,
  order: fc.array(fc.nat(), { minLength: 25, maxLength: 25 }),
  subset: fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
});

const shuffled = <T>(items: readonly T[], keys: readonly number[]): T[] =>
  items
    .map((item, i) => ({ item, key: keys[i] ?? 0 }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);

describe("catalog_sync idempotence", () => {
  const RUNS = runs(150, 10_000);

  it(`${RUNS} random catalogs: unchanged syncs write nothing and replace-back restores everything`, async () => {
    const sid = newSid();
    const address = { tenant: "tenant-a", sid };
    await inObject(sid, (obj) =>
      quietly(() =>
        fc.assert(
          fc.asyncProperty(scenarioArb, async ({ tools, other, config, order, subset }) => {
            const sync = async (list: Tool[], mode: "replace" | "merge" = "replace") => {
              const before = obj.sql.stats.rowsWritten;
              const result = answerOf(
                await runIn(obj, address, "catalog_sync", { tools: list, mode }),
                "sync",
              );
              return { result, written: obj.sql.stats.rowsWritten - before };
            };
            answerOf(await runIn(obj, address, "session_configure", config), "configure");
            const first = await sync(tools);
            expect(first.result.total).toBe(tools.length);
            const snapshot = rows(obj);
            const unchanged = {
              fingerprint: first.result.fingerprint,
              added: 0,
              updated: 0,
              removed: 0,
              unchanged: tools.length,
              total: tools.length,
            };

            // The same request, then the same tools in another order with their keys reordered.
            expect(await sync(tools)).toEqual({ result: unchanged, written: 0 });
            expect(await sync(shuffled(tools, order).map(reversedKeys))).toEqual({
              result: unchanged,
              written: 0,
            });
            // A merge of any subset (even empty) changes nothing.
            const part = tools.filter((_, i) => subset[i]);
            expect(await sync(part, "merge")).toEqual({
              result: { ...unchanged, unchanged: part.length },
              written: 0,
            });
            expect(rows(obj)).toEqual(snapshot);

            // Replace with another catalog, then back: the fingerprint and every row come back.
            const away = await sync(other);
            expect(away.result.total).toBe(other.length);
            const back = await sync(shuffled(tools, order));
            expect(back.result.fingerprint).toBe(first.result.fingerprint);
            expect(back.result.total).toBe(tools.length);
            expect(rows(obj)).toEqual(snapshot);
            // From empty, in any order: the same fingerprint (it does not depend on order).
            await sync([]);
            expect((await sync(shuffled(tools, order))).result.fingerprint).toBe(first.result.fingerprint);
            const stored = checkStorage(obj);
            expect(stored.tools).toBe(tools.length);
          }),
          { numRuns: RUNS },
        ),
      ),
    );
  });

  it(`${runs(5, 100)} random catalogs over HTTP: the second identical sync reports nothing changed`, async () => {
    const sid = newSid();
    await quietly(() =>
      fc.assert(
        fc.asyncProperty(catalogArb(25), configArb, async (tools, config) => {
          expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
          const first = await op(sid, "catalog_sync", { tools });
          expect(first.status).toBe(200);
          const second = await op(sid, "catalog_sync", { tools: [...tools].reverse() });
          expect(second.json).toEqual({
            fingerprint: first.json.fingerprint,
            added: 0,
            updated: 0,
            removed: 0,
            unchanged: tools.length,
            total: tools.length,
          });
          const merged = await op(sid, "catalog_sync", { tools: tools.slice(0, 3), mode: "merge" });
          expect(merged.json).toMatchObject({ fingerprint: first.json.fingerprint, added: 0, updated: 0 });
        }),
        { numRuns: runs(5, 100) },
      ),
    );
  });
});
