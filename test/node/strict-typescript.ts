// The strict compiler options the node tests type-check generated and user-facing code under: what
// a user's `tsc --strict` project with exact optional properties would say.
import ts from "typescript";

export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
};
