// Cloudflare's published Durable Objects prices (paid plan, beyond the monthly allowances), from
// developers.cloudflare.com/durable-objects/platform/pricing: what the console's dollars are.
export const PRICES = {
  /** Each request to an object, RPC call or alarm. */
  requests_per_million: 0.15,
  /** SQLite rows written (index and FTS rows included). */
  rows_written_per_million: 1.0,
  /** SQLite rows read. */
  rows_read_per_million: 0.001,
} as const;

/** Dollars of a day's (or bucket's) session requests and rows, at PRICES. */
export function costUsd(counts: { requests: number; rows_read: number; rows_written: number }): number {
  const usd =
    (counts.requests * PRICES.requests_per_million +
      counts.rows_written * PRICES.rows_written_per_million +
      counts.rows_read * PRICES.rows_read_per_million) /
    1_000_000;
  return Math.round(usd * 1e9) / 1e9;
}
