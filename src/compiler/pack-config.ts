// Reads a pack's pack.yaml (name, version, scope and its ids, pinned skills, flags, entry doc) into
// the pack's config, defaulting what it leaves out; used by compile.ts.
import type { BundledPack } from "../packs/bundle";
import { PACK_NAME, PACK_NAME_RULE, PackConfigFile } from "./formats";
import type { PackFile } from "./problems";
import {
  check,
  definitionText,
  isRecord,
  type Path,
  type Problems,
  parseYaml,
  withoutNulls,
} from "./sources";

/** A pack's fields that pack.yaml sets; the compiler adds the capability, the tools and the hash. */
export type PackConfig = Omit<BundledPack, "hash" | "capability" | "tools">;

export interface ReadConfig {
  config: PackConfig;
  /** `entry` from pack.yaml: the entry doc's path in the pack. */
  entry?: string;
  lineOf(path: Path): number | undefined;
}

/** pack.yaml's fields over the defaults (a pack needs no pack.yaml); problems are reported, not thrown. */
export function readPackConfig(folder: string, file: PackFile | undefined, problems: Problems): ReadConfig {
  const defaults: PackConfig = {
    name: folder,
    version: null,
    description: null,
    scope: "global",
    tenant_id: null,
    project_id: null,
    pinned: [],
    enabled: true,
    update_existing: true,
    folder,
  };
  const text = file && definitionText(file, problems);
  const source = file && text != null ? parseYaml(text, file.path, 1, "yaml", problems) : null;
  const where = file?.path ?? folder;
  if (!source || source.value === null) {
    if (!PACK_NAME.test(folder))
      problems.add(
        "error",
        where,
        "name",
        `folder name "${folder}" ${PACK_NAME_RULE}; set name in pack.yaml`,
      );
    return { config: defaults, lineOf: () => undefined };
  }
  if (isRecord(source.value)) {
    const fields = withoutNulls(source.value);
    // `version: 1.10` must stay "1.10", not become the number 1.1.
    if (typeof fields.version === "number") fields.version = source.scalarSource(["version"]);
    for (const key of Object.keys(fields).filter((k) => !(k in PackConfigFile.shape)))
      problems.add("warning", source.file, key, "unknown field; ignored", source.lineOf([key]));
    source.value = fields;
  }
  const data = check(PackConfigFile, source, problems, "pack");
  if (!data) {
    const name = isRecord(source.value) ? PACK_NAME.exec(String(source.value.name))?.[0] : undefined;
    return { config: { ...defaults, name: name ?? folder }, lineOf: source.lineOf };
  }
  const config: PackConfig = {
    ...defaults,
    name: data.name ?? folder,
    version: data.version ?? null,
    description: data.description ?? null,
    scope: data.scope ?? "global",
    tenant_id: data.tenant_id ?? null,
    project_id: data.project_id ?? null,
    pinned: [...new Set(data.pinned ?? [])],
    enabled: data.enabled ?? true,
    update_existing: data.update_existing ?? true,
  };
  if (data.name === undefined && !PACK_NAME.test(folder))
    problems.add("error", source.file, "name", `folder name "${folder}" ${PACK_NAME_RULE}; set name`);
  // Learned skills are served as the pack `learned` (docs/learned-skills.md): no bundled pack takes it.
  if (config.name.toLowerCase() === "learned")
    problems.add(
      "error",
      source.file,
      "name",
      `"learned" is reserved for the tenant's learned skills; set name`,
    );
  // Scope decides which ids matter: a tenant pack needs its tenant, a project pack both.
  const scopeLine = source.lineOf(["scope"]);
  if (config.scope !== "global" && config.tenant_id === null)
    problems.add("error", source.file, "tenant_id", `required when scope is ${config.scope}`, scopeLine);
  if (config.scope === "project" && config.project_id === null)
    problems.add("error", source.file, "project_id", "required when scope is project", scopeLine);
  for (const key of ["tenant_id", "project_id"] as const) {
    if (
      config[key] !== null &&
      (config.scope === "global" || (config.scope === "tenant" && key === "project_id"))
    ) {
      problems.add("warning", source.file, key, `ignored: scope is ${config.scope}`, source.lineOf([key]));
      config[key] = null;
    }
  }
  return data.entry === undefined
    ? { config, lineOf: source.lineOf }
    : { config, entry: data.entry, lineOf: source.lineOf };
}
