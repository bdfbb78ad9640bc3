import type pg from "pg";
import { scrapeGauge, type MetricSet } from "./metrics";

/*
 * pg pools' use, read when /metrics is scraped (pg keeps the counts; nothing is recorded per query):
 * connections in use and idle, and queries waiting for a connection. A process names each of its pools
 * ("app" for the web's pool, "worker" for the delivery worker's).
 */

const KEY = Symbol.for("integration-access.observed-pools");
type Holder = { [KEY]?: Map<string, () => pg.Pool | null> };

function pools(): Map<string, () => pg.Pool | null> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** Reports `pool` (read lazily: a pool made on first use) under `name` from the next scrape on. */
export function observePool(set: MetricSet | null, name: string, pool: () => pg.Pool | null): void {
  if (!set) return;
  pools().set(name, pool);
  scrapeGauge(
    set,
    "db_pool_connections",
    "Database pool connections by state (in_use, idle).",
    ["pool", "state"],
    (gauge) => {
      gauge.reset();
      for (const [label, read] of pools()) {
        const current = read();
        if (!current) continue;
        gauge.labels(label, "in_use").set(current.totalCount - current.idleCount);
        gauge.labels(label, "idle").set(current.idleCount);
      }
    },
  );
  scrapeGauge(set, "db_pool_waiting", "Queries waiting for a database pool connection.", ["pool"], (gauge) => {
    gauge.reset();
    for (const [label, read] of pools()) {
      const current = read();
      if (current) gauge.labels(label).set(current.waitingCount);
    }
  });
}
