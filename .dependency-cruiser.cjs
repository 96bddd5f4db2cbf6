// The house's floors, enforced in `npm test` (docs/architecture.md explains them). Imports point
// down only: a module may import its own floor or a lower one, never a higher one, and nothing
// forms a cycle. The build-time pack compiler is not part of the worker: runtime code never
// imports it. Tests, benchmarks and scripts stand outside the house and may import anything.

/** Top to bottom. A path matches the first floor whose pattern it starts with. */
const FLOORS = [
  { name: "entry", path: "^src/(index|session-object)\\.ts$|^src/session/" },
  { name: "surfaces", path: "^src/(http/|env\\.ts$)" },
  { name: "operations", path: "^src/ops/" },
  { name: "domains", path: "^src/(tools|skills|packs|state|generated)/" },
  { name: "shared", path: "^src/search/" },
  { name: "base", path: "^src/(db/|(errors|schemas)\\.ts$)" },
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
      name: "every-src-file-has-a-floor",
      comment: "a new top-level folder in src/ must be placed on a floor in .dependency-cruiser.cjs",
      severity: "error",
      from: { path: "^src/" },
      to: {
        path: "^src/",
        pathNot: [...FLOORS.map((f) => f.path), "^src/compiler/", "^src/client\\.ts$"].join("|"),
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
