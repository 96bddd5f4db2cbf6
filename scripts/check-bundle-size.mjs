// Bundles the worker as `wrangler deploy` would (--dry-run: nothing is uploaded) and fails when the
// upload would exceed the limit we hold ourselves to: 1 MB gzipped (Workers allow 3 MB on the
// free plan and 10 MB on paid; staying small keeps cold starts fast).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const LIMIT = 1024 * 1024;
const outdir = mkdtempSync(join(tmpdir(), "trove-deploy-"));
try {
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const files = readdirSync(outdir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(outdir, f)).isFile() && !f.endsWith(".map"));
  let raw = 0;
  let gzipped = 0;
  for (const file of files) {
    const bytes = readFileSync(join(outdir, file));
    raw += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `deploy bundle: ${files.length} file(s), ${kb(raw)} raw, ${kb(gzipped)} gzipped (limit ${kb(LIMIT)})`,
  );
  if (gzipped > LIMIT) {
    console.error(`deploy bundle is over the limit by ${kb(gzipped - LIMIT)}`);
    process.exit(1);
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
