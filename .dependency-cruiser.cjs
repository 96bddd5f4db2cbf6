// The house's floors, enforced in `npm test` (docs/architecture.md explains them). Imports point
// down only: a module may import its own floor or a lower one, never a higher one, and nothing
// forms a cycle. The build-time pack compiler is not part of the worker: runtime code never
// imports it. Tests, benchmarks and scripts stand outside the house and may import anything.

/** Top to bottom. A path matches the first floor whose pattern it starts with. */
const FLOORS = [
  {
    name: "entry",
    path: "^src/(index|session-object|learning-object|learned-skills-object|catalog-object|analytics-object|upstream-object)\\.ts$|^src/session/",
  },
  { name: "surfaces", path: "^src/(http/|env\\.ts$)" },
  { name: "operations", path: "^src/ops/" },
  {
    name: "domains",
    path: "^src/(tools|skills|packs|state|learning|lessons|published|analytics|generated|gateway)/",
  },
  { name: "shared", path: "^src/search/" },
  { name: "base", path: "^src/(db/|(errors|schemas|timeout)\\.ts$)" },
];

const upward = FLOORS.flatMap((lower, i) =>
  FLOORS.slice(0, i).map((higher) => ({
    name: `no-upward-${lower.name}-to-${higher.name}`,
    comment: `${lower.name} sits below ${higher.name}: it may not import it`,
    severity: "error",
    from: { path: lower.path },
    to: { path: higher.path },
  })),
);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "import cycles make floors meaningless and initialisation order fragile",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "runtime-never-imports-compiler",
      comment: "src/compiler/ runs at build time (scripts/build-packs.ts); the worker gets its output",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/compiler/" },
      to: { path: "^src/compiler/" },
    },
    {
      name: "compiler-stays-below-runtime",
      comment: "the compiler may use the bundle's types and record schemas, not sessions or surfaces",
      severity: "error",
      from: { path: "^src/compiler/" },
      to: { path: "^src/(index|session-object|env)\\.ts$|^src/(session|http|ops|state)/" },
    },
    {
      name: "client-package-stands-alone",
      // Packages in node_modules are excluded from the graph: test/node/client-package.test.ts
      // checks that the packed client imports none.
      comment: "packages/client is published on its own: it imports its own files, never the worker's",
      severity: "error",
      from: { path: "^packages/client/src/" },
      to: { pathNot: "^packages/client/src/" },
    },
    {
      name: "ai-sdk-package-stands-alone",
      // `@trove/client` resolves to the workspace package's build (packages/client/dist/).
      comment:
        "packages/ai-sdk is published on its own: its files, @trove/client and `ai`, never the worker's",
      severity: "error",
      from: { path: "^packages/ai-sdk/src/" },
      to: { pathNot: "^packages/ai-sdk/src/|^packages/client/dist/" },
    },
    {
      name: "every-src-file-has-a-floor",
      comment: "a new top-level folder in src/ must be placed on a floor in .dependency-cruiser.cjs",
      severity: "error",
      from: { path: "^src/" },
      to: {
        path: "^src/",
        pathNot: [...FLOORS.map((f) => f.path), "^src/compiler/"].join("|"),
      },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.wrangler)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
