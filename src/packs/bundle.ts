// The shape of the generated pack bundle (src/generated/packs.ts), written by scripts/build-packs.ts.

export interface BundleFile {
  /** Path relative to the packs directory, with `/` separators. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface Bundle {
  /** sha256 over the canonical JSON of `files`: changes whenever any bundled byte changes. */
  hash: string;
  files: BundleFile[];
}
