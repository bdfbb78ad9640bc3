import autocannon from "autocannon";
import fs from "node:fs";
import { computeSignature } from "@/lib/events-webhook/signature";
import { summarise, type LoadSummary } from "./harness";

/*
 * The load: 50 connections sending correctly signed upserts over 10,000 distinct events. Each request is
 * signed when it is sent, with the current timestamp. The events are visited in a shuffled order that
 * repeats only after all 10,000, so no two requests in one second carry the same body (which would be
 * an exact replay, answered as a duplicate without being processed). Bodies are built once, up front,
 * so that the load generator spends its CPU on sending rather than on JSON.
 */

export const DISTINCT_EVENTS = 10_000;

export type LoadResult = LoadSummary & { peakRssMb: number };

function eventBody(index: number): string {
  const start = new Date(Date.UTC(2027, 0, 1, 9) + (index % 2_000) * 3_600_000);
  return JSON.stringify({
    action: "upsert",
    event: {
      title: `Benchmark event ${index}`,
      starts_at: start.toISOString().replace(".000Z", "+00:00"),
      ends_at: new Date(start.getTime() + 5_400_000).toISOString(),
      description: `Load test event ${index}: a realistic short summary of what happens there.`,
      location: `Hall ${index % 7}`,
      url: `https://example.com/events/${index}`,
      price: index % 3 === 0 ? "Free" : "€12",
      recurring: "",
    },
  });
}

const BODIES = Array.from({ length: DISTINCT_EVENTS }, (_, index) => eventBody(index));

function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A process and all its descendants (Linux /proc); one that ends meanwhile is left out. */
export function processTree(pid: number): number[] {
  const pids: number[] = [];
  const visit = (id: number) => {
    try {
      const children = fs
        .readdirSync(`/proc/${id}/task`)
        .flatMap((task) =>
          fs.readFileSync(`/proc/${id}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean),
        );
      pids.push(id);
      for (const child of children) visit(Number(child));
    } catch {
      // The process ended between listing and reading.
    }
  };
  visit(pid);
  return pids;
}

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
export function treeRss(pid: number): number {
  let total = 0;
  for (const id of processTree(pid)) {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${id}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total;
}

export async function runLoad(options: {
  port: number;
  publicId: string;
  secret: string;
  seconds: number;
  serverPid: number;
}): Promise<LoadResult> {
  let sequence = 0;
  const order = shuffled(DISTINCT_EVENTS);
  let peakRss = treeRss(options.serverPid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, treeRss(options.serverPid));
  }, 500);
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${options.port}`,
      connections: 50,
      duration: options.seconds,
      requests: [
        {
          method: "POST",
          path: `/api/v1/events/webhook/${options.publicId}`,
          setupRequest: (request) => {
            const body = BODIES[order[sequence++ % DISTINCT_EVENTS]];
            const timestamp = String(Math.floor(Date.now() / 1000));
            return {
              ...request,
              body,
              headers: {
                "content-type": "application/json",
                "user-agent": "webhook-bench/1",
                "x-service-timestamp": timestamp,
                "x-service-signature": computeSignature(options.secret, timestamp, body),
              },
            };
          },
        },
      ],
    });
    return { ...summarise(result), peakRssMb: Math.round(peakRss / 1024 / 1024) };
  } finally {
    clearInterval(sampler);
  }
}
