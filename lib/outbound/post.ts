import http from "node:http";
import https from "node:https";
import net from "node:net";
import { urlToHttpOptions } from "node:url";
import { allowLoopbackTargets, isAllowedAddress, RefusedAddressError, safeLookup } from "@/lib/webhook-subscriptions/addresses";

/*
 * One HTTP attempt of a notification (docs/outbound-webhooks.md, "Delivery"). The connection goes through
 * agents whose lookup refuses private addresses (ESSRF), checked against the address really connected
 * to (an IP literal in the URL is checked here, since no lookup runs for it). One deadline covers the
 * whole attempt: connect, send, answer and body. Redirects are not followed (a 3xx is a failure). Only
 * the first 4 KiB of the answer are kept and reading stops after 64 KiB, so a huge body costs nothing.
 * A URL is parsed once and an IP literal judged once (per loopback setting): doing both on every attempt
 * was about a fifth of an attempt's cost in a loop of attempts to a local receiver.
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

type Target = { isHttps: boolean; options: http.RequestOptions; ipLiteral: string | null };

/** Bounds the caches below: subscription URLs, and the IP literals among them. */
const CACHE_LIMIT = 1_000;
const targets = new Map<string, Target>();
const verdicts = new Map<string, boolean>();

function targetOf(url: string): Target {
  const known = targets.get(url);
  if (known) return known;
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("unsupported protocol");
  const isHttps = parsed.protocol === "https:";
  // What http.request takes from a URL object itself (urlToHttpOptions: no brackets around an IPv6 host).
  const { protocol, hostname, port, path, auth } = urlToHttpOptions(parsed);
  const options: http.RequestOptions = { protocol, hostname, port, path, method: "POST", agent: isHttps ? agents.https : agents.http, lookup: safeLookup };
  if (auth) options.auth = auth;
  const target: Target = { isHttps, options, ipLiteral: net.isIP(hostname ?? "") ? (hostname as string) : null };
  if (targets.size >= CACHE_LIMIT) targets.clear();
  targets.set(url, target);
  return target;
}

/** An IP literal is never looked up, so it is judged here, before connecting (ESSRF when refused). */
function assertAllowedLiteral(ip: string): void {
  const allowLoopback = allowLoopbackTargets();
  const key = `${allowLoopback ? "loopback " : ""}${ip}`;
  let allowed = verdicts.get(key);
  if (allowed === undefined) {
    allowed = isAllowedAddress(ip, { allowLoopback });
    if (verdicts.size >= CACHE_LIMIT) verdicts.clear();
    verdicts.set(key, allowed);
  }
  if (!allowed) throw new RefusedAddressError(ip, ip);
}

export function post(url: string, headers: Record<string, string>, body: string, timeoutMs = deliveryTimeoutMs()): Promise<PostResult> {
  return new Promise<PostResult>((resolve) => {
    let target: Target;
    try {
      target = targetOf(url);
      if (target.ipLiteral) assertAllowedLiteral(target.ipLiteral);
    } catch (error) {
      resolve({ statusCode: null, excerpt: "", durationMs: 0, error: describeError(error), retryAfter: undefined });
      return;
    }
    new Attempt(resolve, timeoutMs).send(target, headers, body);
  });
}

/** One request and its answer; a class so that an attempt allocates no closures of its own but its listeners. */
class Attempt {
  private readonly started = performance.now();
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private kept: Buffer | null = null;
  private readBytes = 0;

  constructor(
    private readonly resolve: (result: PostResult) => void,
    private readonly timeoutMs: number,
  ) {}

  send(target: Target, headers: Record<string, string>, body: string): void {
    const request = (target.isHttps ? https : http).request({
      ...target.options,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    this.timer = setTimeout(() => {
      request.destroy(Object.assign(new Error("timeout"), { code: "OUTBOUND_TIMEOUT" }));
      this.finish(null, "", `No answer within ${Math.round(this.timeoutMs / 1000)} seconds (timed out).`);
    }, this.timeoutMs);
    request.on("error", (error) => this.finish(null, "", describeError(error)));
    request.on("response", (response) => this.read(response));
    request.end(body);
  }

  private read(response: http.IncomingMessage): void {
    const retryAfter = typeof response.headers["retry-after"] === "string" ? response.headers["retry-after"] : undefined;
    const done = () => this.finish(response.statusCode ?? null, this.kept ? this.kept.toString("utf8") : "", null, retryAfter);
    response.on("data", (chunk: Buffer) => {
      this.readBytes += chunk.length;
      const keptBytes = this.kept?.length ?? 0;
      if (keptBytes < EXCERPT_BYTES) {
        const part = chunk.subarray(0, EXCERPT_BYTES - keptBytes);
        this.kept = this.kept ? Buffer.concat([this.kept, part]) : part;
      }
      if (this.readBytes >= READ_LIMIT_BYTES) {
        // The answer is known; the rest of a huge body is not worth reading.
        done();
        response.destroy();
      }
    });
    response.on("end", done);
    // A connection dropped mid-body still answered with its status code.
    response.on("error", done);
    response.on("aborted", done);
  }

  private finish(statusCode: number | null, excerpt: string, error: string | null, retryAfter?: string): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.resolve({ statusCode, excerpt, error, retryAfter, durationMs: Math.round(performance.now() - this.started) });
  }
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
