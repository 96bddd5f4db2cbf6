// Every operation Trove offers, in one list: HTTP routes (and later MCP, OpenAPI, client) come from it.
import { approvalDecide, toolActivate, toolDeactivate, toolResolve } from "./activation-ops";
import { context, events, state } from "./context-ops";
import { skillFeedback, skillLearn } from "./lesson-ops";
import type { Operation } from "./operation";
import { packAttach, packDetach, packEnableTools, packList, packOpenDocs, packReadFile } from "./pack-ops";
import { sessionConfigure, sessionDelete, sessionGet } from "./session-ops";
import { skillDisable, skillEnable } from "./skill-enable-ops";
import { skillDirectory, skillLoad, skillReadFile } from "./skill-load-ops";
import { skillGet, skillList, skillSearch } from "./skill-ops";
import { catalogSync, toolSearch } from "./tool-ops";

export const OPERATIONS = [
  sessionGet,
  sessionConfigure,
  sessionDelete,
  catalogSync,
  toolSearch,
  toolActivate,
  toolDeactivate,
  toolResolve,
  approvalDecide,
  context,
  state,
  events,
  skillSearch,
  skillGet,
  skillList,
  skillDirectory,
  skillLoad,
  skillReadFile,
  skillEnable,
  skillDisable,
  skillLearn,
  skillFeedback,
  packList,
  packAttach,
  packDetach,
  packOpenDocs,
  packReadFile,
  packEnableTools,
] as const satisfies readonly Operation[];

/** Every operation by name, with its input and output types: what the typed client is made of. */
export type Operations = { [Op in (typeof OPERATIONS)[number] as Op["name"]]: Op };
export type OperationName = keyof Operations;

export const OPERATIONS_BY_NAME: ReadonlyMap<string, Operation> = new Map(
  OPERATIONS.map((op): [string, Operation] => [op.name, op as Operation]),
);
