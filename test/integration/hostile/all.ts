// The whole hostile corpus, by group: each group runs against one seeded session.
import { ACTIVATION_CASES } from "./activation";
import type { HostileCase } from "./cases";
import { CATALOG_CASES } from "./catalog";
import { MCP_CASES } from "./mcp";
import { OPERATION_CASES } from "./operations";
import { PACK_CASES } from "./packs";
import { PUBLIC_CASES } from "./public";
import { SESSION_CASES } from "./session";
import { SKILL_FILE_CASES } from "./skill-files";
import { SKILL_CASES } from "./skills";
import { TENANT_CASES } from "./tenant";
import { TOOL_SEARCH_CASES } from "./tool-search";
import { TRANSPORT_CASES } from "./transport";
import { TURN_CASES } from "./turn";

/** `viaSelf`: sent through SELF.fetch (workerd's loopback) rather than to the fetch handler directly. */
export const GROUPS: { name: string; cases: HostileCase[]; viaSelf?: boolean }[] = [
  { name: "routing, auth, content types and sizes", cases: TRANSPORT_CASES, viaSelf: true },
  { name: "public routes", cases: PUBLIC_CASES, viaSelf: true },
  { name: "the console and the tenant's analytics", cases: TENANT_CASES, viaSelf: true },
  { name: "the session resource", cases: SESSION_CASES },
  { name: "catalog_sync", cases: CATALOG_CASES },
  { name: "tool_search", cases: TOOL_SEARCH_CASES },
  { name: "activation and resolution", cases: ACTIVATION_CASES },
  { name: "approvals, context, state and events", cases: TURN_CASES },
  { name: "skills", cases: SKILL_CASES },
  { name: "skill files", cases: SKILL_FILE_CASES },
  { name: "capability packs", cases: PACK_CASES },
  { name: "every operation alike", cases: OPERATION_CASES },
  { name: "the MCP endpoint", cases: MCP_CASES },
];

export const ALL_CASES: HostileCase[] = GROUPS.flatMap((g) => g.cases);
