// Every operation answers malformed input with a 4xx JSON error naming the field, and writes nothing.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/ops/registry";
import type { SessionObject } from "../../src/session-object";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const rowsWritten = (sid: string) =>
  runInDurableObject(sessionStub(sid), (obj: SessionObject) => obj.sql.stats.rowsWritten);

const BAD_BODIES: [string, unknown][] = [
  ["an unknown field", { definitely_not_a_field: 1 }],
  ["an array body", [1, 2]],
  ["a string body", "just text"],
  ["malformed JSON", "{not json"],
];

describe("bad input on every operation", () => {
  // Every operation answers POST /v1/sessions/{sid}/{name}, the session resource's (which also has
  // GET, PUT and DELETE) included: the loop covers the whole registry.
  for (const operation of OPERATIONS) {
    it(`${operation.name} answers bad bodies with 4xx JSON naming the field and writes nothing`, async () => {
      const sid = newSid();
      await call("GET", `/v1/sessions/${sid}`); // the session exists; its start-up writes are done
      const before = await rowsWritten(sid);
      for (const [label, body] of BAD_BODIES) {
        const res = await op(sid, operation.name, body);
        expect(res.status, `${operation.name}: ${label}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${operation.name}: ${label}`).toBeLessThan(500);
        expect(res.json.error.code, label).toMatch(/^(invalid_input|invalid_json)$/);
        expect(typeof res.json.error.details.field, label).toBe("string");
      }
      expect(await rowsWritten(sid)).toBe(before);
    });
  }
});
