import { benchCatalog } from "./catalogs";
import { startBench } from "./harness";

const bench = await startBench();
const catalog = benchCatalog(400);
await bench.publish("r", catalog);
const a: number[] = [],
  u: number[] = [];
for (let i = 0; i < 15; i++) {
  const up = await bench.session(`u${i}`);
  await up.timeOnce("session_get", {});
  const sync = await up.timeOnce("catalog_sync", { tools: catalog });
  const s = await bench.session(`p${i}`);
  const attach = await s.timeOnce("session_configure", { catalog: "r" });
  a.push(attach.ms);
  u.push(sync.ms);
}
const med = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
console.log({ attachMedian: med(a), syncMedian: med(u), a });
await bench.mf.dispose();
