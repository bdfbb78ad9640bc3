import type { ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { emitNotifications } from "@/lib/outbound/emit";
import { RETRY_DELAYS_MS } from "@/lib/outbound/schedule";
import { generateSubscriptionSecret } from "@/lib/webhook-subscriptions/model";
import { percentile, stopProcess } from "./harness";
import { startWorker, withOutboundBench, type OutboundBench, type Receipt } from "./outbound-processes";

/*
 * npm run bench:outbound -- --failing [--failing-minutes N] — the soak of the bounded outbound queue
 * (docs/outbound-webhooks.md, "Answers, retries and disabling"): one account, two subscriptions on the
 * receiver, one answering 503 for N minutes (default 10) while the other is healthy. BENCH_SOAK_NOTIFICATIONS
 * (default 20,000) notifications, each to both, are written at an even pace over those minutes, delivered by
 * `npm run worker`. Sampled every 500 ms: the rows of graphile-worker's job table (its public view), the
 * outbound queue and the open circuits. Then, once the failing receiver answers again, every delivery to it
 * must arrive. Targets: graphile-worker's job table under 1,000 rows throughout, the healthy receiver's p99
 * lag under 2 s, 0 lost and 0 duplicates (by webhook-id) on either.
 *
 * The retry schedule is about 28 hours; the soak shortens it with OUTBOUND_RETRY_SCALE (tests and benchmarks
 * only), chosen so that the failing subscription's 7th attempt falls about 10% after the outage ends: its
 * oldest delivery, the probe, is then still within its 8 attempts, and the circuit closes promptly.
 */

const NOTIFICATIONS = Number(process.env.BENCH_SOAK_NOTIFICATIONS ?? 20_000);
const TICK_MS = 250;
const SAMPLE_MS = 500;
// The receiver's paths of the two subscriptions (withOutboundBench): the first answers 503 during the outage.
const FAILING = "/0";
const HEALTHY = "/1";

function failingMinutes(): number {
  const index = process.argv.indexOf("--failing-minutes");
  const value = index >= 0 ? Number(process.argv[index + 1]) : 10;
  return Number.isFinite(value) && value > 0 ? value : 10;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Distinct 2xx receipts at `path` of these notifications, and the 2xx receipts beyond one per notification. */
function tally(receipts: Receipt[], path: string, commits: Map<string, number>) {
  const firsts = new Map<string, Receipt>();
  let duplicates = 0;
  for (const receipt of receipts) {
    if (receipt.path !== path || !receipt.ok || !commits.has(receipt.id)) continue;
    if (firsts.has(receipt.id)) duplicates++;
    else firsts.set(receipt.id, receipt);
  }
  return { firsts: [...firsts.values()], duplicates, lost: commits.size - firsts.size };
}

/** The outage of `outageMs`, the retry schedule shortened `scale` times (`total` ms in all); the exit code. */
async function soak(
  { database, receiver, pool, accountId }: OutboundBench,
  { outageMs, scale, total }: { outageMs: number; scale: number; total: number },
): Promise<number> {
  let worker: ChildProcess | null = null;
  try {
    worker = await startWorker(database.url, { OUTBOUND_RETRY_SCALE: String(scale) });

    const started = Date.now();
    const recovered = started + outageMs;
    await receiver.failUntil(FAILING, recovered);
    const samples: Array<{ jobs: number; queue: number; circuits: number }> = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await pool.query<{ jobs: number; queue: number; circuits: number }>(
          `SELECT (SELECT count(*) FROM graphile_worker.jobs)::int AS jobs,
             (SELECT count(*) FROM outbound_queue)::int AS queue,
             (SELECT count(*) FROM outbound_circuits)::int AS circuits`,
        );
        samples.push(rows[0]);
        await sleep(SAMPLE_MS);
      }
    })();

    // An even pace over the outage: a batch every TICK_MS.
    const commits = new Map<string, number>();
    const ticks = Math.max(1, Math.floor(outageMs / TICK_MS));
    for (let tick = 0, written = 0; tick < ticks; tick++) {
      const count = Math.round(((tick + 1) * NOTIFICATIONS) / ticks) - written;
      if (count > 0) {
        const batch = Array.from({ length: count }, (_, i) => ({
          type: "event.updated",
          data: { id: crypto.randomUUID(), title: `Soak ${written + i}` },
        }));
        const ids = await emitNotifications(pool, accountId, batch);
        const committed = Date.now();
        for (const id of ids) commits.set(id, committed);
        written += count;
      }
      await sleep(Math.max(0, started + (tick + 1) * TICK_MS - Date.now()));
    }
    const writtenAt = Date.now();
    // Every delivery to the failing receiver, once it answers again: within the rest of the shortened schedule.
    const deadline = started + total * scale * 1.3 + 120_000;
    const delivered = async (path: string) => tally(await receiver.receipts(), path, commits).firsts.length;
    while (
      Date.now() < deadline &&
      ((await delivered(FAILING)) < commits.size || (await delivered(HEALTHY)) < commits.size)
    )
      await sleep(1_000);
    await sleep(3_000); // late duplicates
    sampling = false;
    await sampler;

    const receipts = await receiver.receipts();
    const healthy = tally(receipts, HEALTHY, commits);
    const failing = tally(receipts, FAILING, commits);
    const lags = healthy.firsts.map((r) => r.at - commits.get(r.id)!).sort((a, b) => a - b);
    const refused = receipts.filter((r) => r.path === FAILING && !r.ok).length;
    const lastFailing = Math.max(...failing.firsts.map((r) => r.at));
    const firstAfter = Math.min(...failing.firsts.map((r) => r.at));
    const maxJobs = Math.max(...samples.map((s) => s.jobs));
    console.log(
      `Written: ${commits.size} notifications in ${seconds(writtenAt - started)}; outage ${seconds(outageMs)}`,
    );
    console.log(
      `graphile-worker's job table: max ${maxJobs} rows over ${samples.length} samples; outbound queue max ` +
        `${Math.max(...samples.map((s) => s.queue))} rows; ` +
        `open circuits max ${Math.max(...samples.map((s) => s.circuits))}`,
    );
    console.log(
      `Healthy: ${healthy.firsts.length}/${commits.size}, lag p50 ${Math.round(percentile(lags, 0.5))} ms, ` +
        `p99 ${Math.round(percentile(lags, 0.99))} ms, max ${lags.at(-1) ?? 0} ms; duplicates ${healthy.duplicates}`,
    );
    console.log(
      `Failing: ${refused} attempts answered 503 during the outage; first 2xx ${seconds(firstAfter - recovered)} ` +
        `after it ended, all ${failing.firsts.length}/${commits.size} by ` +
        `${seconds(lastFailing - recovered)} after it; ` +
        `lost ${failing.lost}, duplicates ${failing.duplicates}`,
    );
    const checks: [string, boolean][] = [
      ["graphile-worker's job table < 1,000 rows throughout", maxJobs < 1_000],
      ["healthy p99 lag < 2 s", percentile(lags, 0.99) < 2_000],
      ["0 lost", healthy.lost === 0 && failing.lost === 0],
      ["0 duplicates", healthy.duplicates === 0 && failing.duplicates === 0],
    ];
    for (const [label, ok] of checks) console.log(`${ok ? "✓" : "✖"} ${label}`);
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    if (worker) await stopProcess(worker);
  }
}

export async function runSoak(): Promise<number> {
  const outageMs = failingMinutes() * 60_000;
  const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
  const sixth = RETRY_DELAYS_MS.slice(0, 6).reduce((sum, delay) => sum + delay, 0);
  const scale = (1.1 * outageMs) / sixth;
  console.log(
    `▸ bench:outbound --failing — ${NOTIFICATIONS} notifications × 2 subscriptions over ${seconds(outageMs)}, ` +
      `one answering 503 meanwhile; OUTBOUND_RETRY_SCALE=${scale.toPrecision(3)} (the 8 attempts span ` +
      `${seconds(total * scale)})`,
  );
  const setup = { account: "Soak", secrets: [generateSubscriptionSecret(), generateSubscriptionSecret()] };
  return withOutboundBench("outbound-soak", setup, (bench) => soak(bench, { outageMs, scale, total }));
}
