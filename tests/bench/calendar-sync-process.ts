import { syncFeed } from "@/lib/calendar-feeds/sync";
import { db } from "@/lib/platform/db/client";

/*
 * bench:calendar's first sync, in a process of its own as a worker runs it: only the app's code and the
 * sync, so its peak RSS is the sync's cost in a worker, not the benchmark's feed server and feed text.
 * Prints one JSON line: the sync's result, its time and the process's peak RSS.
 * Run with: tsx --conditions=react-server tests/bench/calendar-sync-process.ts <feed id>
 */
const feedId = process.argv[2] ?? "";
const started = performance.now();
try {
  const result = await syncFeed(feedId);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ result, ms, peakRss: process.resourceUsage().maxRSS * 1024 }));
} finally {
  await db.pool.end();
}
