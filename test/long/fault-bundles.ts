// Two deploys of the packs for the fault suites: v2 changes a capability pack's tools, removes
// another pack, changes, removes and adds skills, and drops a skill that brings tools.
import { expect } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";

const entry = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\nCall \`deploy\` then check.\n`;

const tool = (name: string, description: string) => ({
  name,
  description,
  input_schema: { type: "object", properties: { service: { type: "string" } } },
});

const skill = (name: string, steps: string[]) =>
  JSON.stringify({ name, trigger: `When the ${name} routine is needed`, steps });

function compile(files: { path: string; content: string }[]): Bundle {
  const { bundle, errors } = compilePacks(files);
  expect(errors).toEqual([]);
  return bundle;
}

const helper = [
  {
    path: "guides/helper/manifest.yaml",
    content: 'name: helper\nversion: "1.0.0"\ndescription: Helps with release chores.\n',
  },
  { path: "guides/helper/instructions.md", content: "# Helper\nUse `tidy` after a release.\n" },
  { path: "guides/helper/tools.json", content: JSON.stringify([tool("tidy", "Tidy up after a release")]) },
];

export const V1 = compile([
  { path: "ops/SKILL.md", content: entry("ops", "Deploys and rollbacks for the fault tests.") },
  { path: "ops/docs/runbook.md", content: "# Runbook v1\nRoll back first.\n" },
  {
    path: "ops/tools.json",
    content: JSON.stringify([
      tool("deploy", "Deploy a service"),
      tool("rollback", "Roll a service back (v1)"),
      tool("purge", "Purge the caches of a service"),
    ]),
  },
  { path: "legacy/SKILL.md", content: entry("legacy", "The old way of doing things.") },
  { path: "legacy/tools.json", content: JSON.stringify([tool("old_tool", "Do it the old way")]) },
  { path: "guides/pack.yaml", content: "name: guides\n" },
  { path: "guides/g1.skill.json", content: skill("g1", ["First step of g1 version one"]) },
  { path: "guides/g2.skill.json", content: skill("g2", ["Only step of g2"]) },
  ...helper,
]);

export const V2 = compile([
  { path: "ops/SKILL.md", content: entry("ops", "Deploys and rollbacks for the fault tests.") },
  { path: "ops/docs/runbook.md", content: "# Runbook v2\nRoll forward.\n" },
  {
    path: "ops/tools.json",
    content: JSON.stringify([
      tool("deploy", "Deploy a service"),
      tool("rollback", "Roll a service back (v2)"),
      tool("status", "Status of a service"),
    ]),
  },
  { path: "guides/pack.yaml", content: "name: guides\n" },
  { path: "guides/g1.skill.json", content: skill("g1", ["First step of g1 version two", "Second step"]) },
  { path: "guides/g4.skill.json", content: skill("g4", ["Only step of g4"]) },
]);
