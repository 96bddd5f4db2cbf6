// Workers Analytics Engine, when a deployment binds one (ANALYTICS_ENGINE, optional): each batch a
// session sends also becomes data points there, for SQL over longer periods than the tenant's
// object keeps. One point per day of the batch, indexed by tenant; the same counts, no text.
import { DAY_COUNTERS, type DayBatch } from "./analytics-batch";

/** The part of Analytics Engine's binding this uses. */
export interface DataPointSink {
  writeDataPoint(point: { indexes: string[]; blobs: string[]; doubles: number[] }): void;
}

/**
 * The data points of a batch: index the tenant, blobs [day], doubles DAY_COUNTERS in their order
 * (documented in docs/console.md so queries can name them).
 */
export function dataPoints(tenant: string, batch: readonly DayBatch[]) {
  return batch.map((day) => ({
    indexes: [tenant],
    blobs: [day.day],
    doubles: DAY_COUNTERS.map((c) => Number(day.counts[c]) || 0),
  }));
}

/** Writes a batch's points; Analytics Engine never fails the caller (writes are fire and forget). */
export function writeDataPoints(sink: DataPointSink | undefined, tenant: string, batch: readonly DayBatch[]) {
  if (!sink) return 0;
  const points = dataPoints(tenant, batch);
  for (const point of points) sink.writeDataPoint(point);
  return points.length;
}
