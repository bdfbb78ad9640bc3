import http from "node:http";
import https from "node:https";
import net from "node:net";
import { assertPublicAddress, safeLookup } from "@/lib/webhook-subscriptions/addresses";

/*
 * One HTTP attempt of a notification (docs/outbound-webhooks.md, "Delivery"). The connection goes through
 * agents whose lookup refuses private addresses (ESSRF), checked against the address really connected
 * to (an IP literal in the URL is checked here, since no lookup runs for it). One deadline covers the
 * whole attempt: connect, send, answer and body. Redirects are not followed (a 3xx is a failure). Only
 * the first 4 KiB of the answer are kept and reading stops after 64 KiB, so a huge body costs nothing.
 */

export const DELIVERY_TIMEOUT_MS = 15_000;
export const EXCERPT_BYTES = 4 * 1024;
export const READ_LIMIT_BYTES = 64 * 1024;

export function deliveryTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const configured = Number(env.OUTBOUND_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DELIVERY_TIMEOUT_MS;
}

export type PostResult = {
  statusCode: number | null;
  excerpt: string;
  durationMs: number;
  /** What went wrong before an answer arrived, in words a person understands. */
  error: string | null;
  retryAfter: string | undefined;
};

// Keep-alive agents reuse connections to a receiver; every new connection is checked again.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256, lookup: safeLookup } as http.AgentOptions),
  https: new https.Agent({ keepAlive: true, maxSockets: 256, lookup: safeLookup } as https.AgentOptions),
};

export function post(url: string, headers: Record<string, string>, body: string, timeoutMs = deliveryTimeoutMs()): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error("unsupported protocol");
      const host = target.hostname.replace(/^\[|\]$/g, "");
      if (net.isIP(host)) assertPublicAddress(host);
    } catch (error) {
      settled = true;
      resolve({ statusCode: null, excerpt: "", durationMs: 0, error: describeError(error), retryAfter: undefined });
      return;
    }
    const isHttps = target.protocol === "https:";
    const request = (isHttps ? https : http).request(target, {
      method: "POST",
      agent: isHttps ? agents.https : agents.http,
      lookup: safeLookup,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    } as http.RequestOptions);
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error("timeout"), { code: "OUTBOUND_TIMEOUT" }));
      finish({ statusCode: null, excerpt: "", error: `No answer within ${Math.round(timeoutMs / 1000)} seconds (timed out).`, retryAfter: undefined });
    }, timeoutMs);
    request.on("error", (error) => finish({ statusCode: null, excerpt: "", error: describeError(error), retryAfter: undefined }));
    request.on("response", (response) => {
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let readBytes = 0;
      const retryAfter = typeof response.headers["retry-after"] === "string" ? response.headers["retry-after"] : undefined;
      const done = () => finish({ statusCode: response.statusCode ?? null, excerpt: Buffer.concat(kept).toString("utf8"), error: null, retryAfter });
      response.on("data", (chunk: Buffer) => {
        readBytes += chunk.length;
        if (keptBytes < EXCERPT_BYTES) {
          const part = chunk.subarray(0, EXCERPT_BYTES - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (readBytes >= READ_LIMIT_BYTES) {
          // The answer is known; the rest of a huge body is not worth reading.
          done();
          response.destroy();
        }
      });
      response.on("end", done);
      // A connection dropped mid-body still answered with its status code.
      response.on("error", done);
      response.on("aborted", done);
    });
    request.end(body);
  });
}

/** Network failures in words for the dashboard's "Delivery attempts" table. */
export function describeError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  switch (code) {
    case "ESSRF":
      return "Refused: the address resolves to a private or reserved network (not allowed for notifications).";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name could not be resolved (DNS).";
    case "ECONNREFUSED":
      return "The receiver refused the connection (nothing listening).";
    case "ECONNRESET":
    case "EPIPE":
      return "The receiver closed the connection before answering (connection reset).";
    case "ETIMEDOUT":
    case "ENETUNREACH":
    case "EHOSTUNREACH":
      return "The receiver could not be reached (network unreachable or connect timeout).";
    default:
      if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `The receiver's TLS certificate was not accepted (${code}).`;
      return `The request failed: ${message ?? String(error)}`;
  }
}
