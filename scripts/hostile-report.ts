// Writes bench/HOSTILE.md: the hostile-input corpus (test/integration/hostile/*.ts) counted by route
// and expected status class. `npm run report:hostile`; the hostile test fails when the file is stale.
import { writeFileSync } from "node:fs";
import { ALL_CASES } from "../test/integration/hostile/all";
import { hostileReport } from "../test/integration/hostile/report";

const out = new URL("../bench/HOSTILE.md", import.meta.url);
writeFileSync(out, hostileReport(ALL_CASES));
console.log(`bench/HOSTILE.md: ${ALL_CASES.length} cases`);
