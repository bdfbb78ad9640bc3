import http from "node:http";
import { Agent, request } from "undici";
import { signatureHeader } from "@/lib/outbound/signing";

/*
 * bench:outbound's reference: the same signed payloads POSTed from a plain loop with the same
 * concurrency, measured with node:http and with undici (the client the worker uses); the faster one is
 * the reference, so that the ratio is not flattered by the choice of client. Each is used as a simple
 * loop would use it (undici's request(), then the answer read to its end), not through the lower-level
 * dispatch API the worker uses, whose handler a simple loop would not write.
 */

export type ReferenceJob = { id: string; body: string; index: number };

/** One POST of a signed job; resolves once the answer's body is read. */
type ReferencePost = (url: string, headers: Record<string, string>, body: string) => Promise<void>;

async function referenceLoop(
  jobs: ReferenceJob[],
  url: string,
  send: ReferencePost,
  secrets: string[],
  concurrency: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = {
          "content-type": "application/json",
          "webhook-id": job.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signatureHeader([secrets[job.index]], job.id, timestamp, job.body),
        };
        await send(`${url}/${job.index}`, headers, job.body);
      }
    }),
  );
}

function referenceClients(concurrency: number): { name: string; send: ReferencePost; close: () => Promise<void> }[] {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const nodeHttp: ReferencePost = (url, headers, body) =>
    new Promise<void>((resolve, reject) => {
      const outgoing = http.request(url, { method: "POST", agent, headers });
      outgoing.on("response", (response) => response.resume().on("end", resolve));
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  const dispatcher = new Agent({ connections: concurrency });
  const viaUndici: ReferencePost = async (url, headers, body) => {
    const response = await request(url, { method: "POST", headers, body, dispatcher });
    await response.body.dump();
  };
  return [
    { name: "node:http", send: nodeHttp, close: async () => agent.destroy() },
    { name: "undici", send: viaUndici, close: () => dispatcher.close() },
  ];
}

export type ReferenceRates = { rates: { name: string; perSecond: number }[]; fastest: number };

/** Each client warmed up with `warmup` requests, then timed over every job; `reset` clears the receiver's receipts. */
export async function measureReference(options: {
  jobs: ReferenceJob[];
  url: string;
  secrets: string[];
  concurrency: number;
  warmup: number;
  reset: () => Promise<void>;
}): Promise<ReferenceRates> {
  const rates: ReferenceRates["rates"] = [];
  for (const client of referenceClients(options.concurrency)) {
    await referenceLoop(
      options.jobs.slice(0, options.warmup),
      options.url,
      client.send,
      options.secrets,
      options.concurrency,
    );
    await options.reset();
    const started = Date.now();
    await referenceLoop(options.jobs, options.url, client.send, options.secrets, options.concurrency);
    rates.push({ name: client.name, perSecond: options.jobs.length / ((Date.now() - started) / 1000) });
    await client.close();
    await options.reset();
  }
  return { rates, fastest: Math.max(...rates.map((rate) => rate.perSecond)) };
}
