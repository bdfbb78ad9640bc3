-- The rate limit counters (public API per key, webhook per source and its log gates, sign-in throttling)
-- are written by nearly every machine request: one upsert each, most often of the same hot row. Unlogged,
-- those writes skip the write-ahead log, which raised the leads API's throughput by about a quarter
-- (bench:api). The price: after a database crash the table is empty (every window starts afresh) and
-- standbys do not have it. Counters of short windows are disposable; nothing else lives in this table.
ALTER TABLE "rate_limits" SET UNLOGGED;
