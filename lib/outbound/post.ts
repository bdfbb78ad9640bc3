import net from "node:net";
import { Agent, type Dispatcher } from "undici";
import {
  allowLoopbackTargets,
  isAllowedAddress,
  RefusedAddressError,
  safeLookup,
} from "@/lib/webhook-subscriptions/addresses";
import { isAllowedPort, isLoopbackHost, portOf } from "@/lib/webhook-subscriptions/target-url";

/*
 * One HTTP attempt of a notification (docs/outbound-webhooks.md, "Delivery"), sent with undici: its
 * keep-alive pool and HTTP/1.1 parser cost the worker less CPU per delivery than node:http
 * (docs/outbound-webhooks.md, "Tuning"). Every new connection goes through a lookup
 * that refuses private addresses (ESSRF), checked against the address really connected to (an IP literal
 * in the URL is checked here, since no lookup runs for it), and so is the port, for URLs stored before the
 * port rule (docs/outbound-webhooks.md, "SSRF rules"). One deadline covers the whole attempt:
 * connect, send, answer and body. Redirects are not followed (a 3xx is a failure). Only the first 4 KiB
 * of the answer are kept and reading stops after 64 KiB, so a huge body costs nothing. A URL is parsed
 * once and an IP literal judged once (per loopback setting).
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

/*
 * Connections are kept alive per receiver. `connect` options reach net.connect / tls.connect, so the
 * safe lookup runs for every new connection. undici follows no redirects unless asked to.
 *
 * undici 7 opens one spare connection after an attempt is aborted mid-answer (at the deadline or the
 * read limit): it re-queues the aborted request, connects for it, then drops it (nodejs/undici#5845).
 * No request is sent on it; the next attempt to that receiver reuses it, or undici closes it when its
 * keep-alive timeout passes.
 */
const dispatcher = new Agent({
  connections: 256,
  connect: { lookup: safeLookup, timeout: undiciTimeout(deliveryTimeoutMs()) },
});

/*
 * undici's own timeouts (connect 10 s, headers and body 300 s by default) are set a second beyond the
 * deadline, so that the deadline alone ends an attempt however it is configured. A second, because
 * undici's timers tick every half second and may fire up to that much early; were its body timeout to
 * end an attempt, a 2xx whose body stalled would count as answered instead of timed out.
 */
function undiciTimeout(deadlineMs: number): number {
  return deadlineMs + 1_000;
}

type Target = {
  origin: string;
  path: string;
  authorization: string | null;
  ipLiteral: string | null;
  port: number;
  /** 127.0.0.0/8, ::1 or localhost by the URL's spelling: any port, with OUTBOUND_ALLOW_LOOPBACK_TARGETS=1. */
  loopbackHost: boolean;
};

/** Bounds the caches below: subscription URLs, and the IP literals among them. */
const CACHE_LIMIT = 1_000;
const targets = new Map<string, Target>();
const verdicts = new Map<string, boolean>();

function targetOf(url: string): Target {
  const known = targets.get(url);
  if (known) return known;
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("unsupported protocol");
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
  // Credentials in a URL are sent as Basic authentication, as node:http and curl do.
  const credentials =
    parsed.username || parsed.password
      ? `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
      : null;
  const target: Target = {
    origin: parsed.origin,
    path: `${parsed.pathname}${parsed.search}`,
    authorization: credentials === null ? null : `Basic ${Buffer.from(credentials).toString("base64")}`,
    ipLiteral: net.isIP(host) ? host : null,
    port: portOf(parsed),
    loopbackHost: isLoopbackHost(parsed.hostname),
  };
  if (targets.size >= CACHE_LIMIT) targets.clear();
  targets.set(url, target);
  return target;
}

/** The port rule of subscribing, again before connecting: any port only for loopback, when allowed. */
function assertAllowedPort(target: Target): void {
  if (isAllowedPort(target.port) || (target.loopbackHost && allowLoopbackTargets())) return;
  const error = new Error(`Refusing to connect to port ${target.port}`);
  throw Object.assign(error, { code: "EPORT_NOT_ALLOWED", port: target.port });
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

export function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = deliveryTimeoutMs(),
): Promise<PostResult> {
  return new Promise<PostResult>((resolve) => {
    let target: Target;
    try {
      target = targetOf(url);
      if (target.ipLiteral) assertAllowedLiteral(target.ipLiteral);
      assertAllowedPort(target);
    } catch (error) {
      resolve({ statusCode: null, excerpt: "", durationMs: 0, error: describeError(error), retryAfter: undefined });
      return;
    }
    const attempt = new Attempt(resolve, timeoutMs);
    const sent = target.authorization ? { ...headers, authorization: target.authorization } : headers;
    const limit = undiciTimeout(timeoutMs);
    const options = {
      origin: target.origin,
      path: target.path,
      method: "POST",
      headers: sent,
      body,
      headersTimeout: limit,
      bodyTimeout: limit,
    };
    dispatcher.dispatch(options, attempt);
  });
}

const TIMED_OUT = Object.assign(new Error("timeout"), { code: "OUTBOUND_TIMEOUT" });
const READ_ENOUGH = Object.assign(new Error("read limit reached"), { code: "OUTBOUND_READ_LIMIT" });

/*
 * One request and its answer, as an undici dispatch handler (its documented low-level API; the methods
 * are called in the order onRequestStart, onResponseStart, onResponseData*, then onResponseEnd or
 * onResponseError). The promise settles once, on the first of: the end of the answer, an error, the
 * read limit, or the deadline.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private settled = false;
  private readonly timer: NodeJS.Timeout;
  private controller: Dispatcher.DispatchController | null = null;
  private statusCode: number | null = null;
  private retryAfter: string | undefined = undefined;
  private kept: Buffer | null = null;
  private readBytes = 0;

  constructor(
    private readonly resolve: (result: PostResult) => void,
    private readonly timeoutMs: number,
  ) {
    this.timer = setTimeout(() => this.timeOut(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // A request still waiting for its connection when the deadline passed is dropped here.
    if (this.settled) controller.abort(TIMED_OUT);
    else this.controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // 1xx informational answers come before the real one
    this.statusCode = statusCode;
    // A header sent twice arrives as an array; the first one counts.
    const retryAfter = headers["retry-after"];
    this.retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.readBytes += chunk.length;
    const keptBytes = this.kept?.length ?? 0;
    if (keptBytes < EXCERPT_BYTES) {
      const part = chunk.subarray(0, EXCERPT_BYTES - keptBytes);
      this.kept = this.kept ? Buffer.concat([this.kept, part]) : part;
    }
    if (this.readBytes >= READ_LIMIT_BYTES) {
      // The answer is known; the rest of a huge body is not worth reading.
      this.answered();
      controller.abort(READ_ENOUGH);
    }
  }

  onResponseEnd(): void {
    this.answered();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    // A connection dropped mid-body still answered with its status code; a body that stalled did not.
    const code = (error as { code?: string }).code;
    if (this.statusCode !== null && code !== "UND_ERR_BODY_TIMEOUT") this.answered();
    else this.finish(null, "", describeError(error));
  }

  private timeOut(): void {
    // No controller yet: the deadline passed before a connection was made (unreachable, or the pool's
    // connections to this receiver were all still waiting for its answers).
    const seconds = Number((this.timeoutMs / 1000).toFixed(1));
    const words = this.controller
      ? `No answer within ${seconds} seconds (timed out).`
      : `No connection to the receiver within ${seconds} seconds (connect timeout).`;
    this.finish(null, "", words);
    this.controller?.abort(TIMED_OUT);
  }

  private answered(): void {
    this.finish(this.statusCode, this.kept ? this.kept.toString("utf8") : "", null, this.retryAfter);
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
  type Described = { code?: string; message?: string; name?: string; port?: number };
  const { code, message, name, port } = (error ?? {}) as Described;
  if (name === "HTTPParserError" || code?.startsWith("HPE_"))
    return `The receiver's answer was not valid HTTP (${message ?? code}).`;
  // undici's words for a 100 Continue, or a 101 Switching Protocols, that was not asked for.
  if (code === "UND_ERR_SOCKET" && message === "bad response")
    return "The receiver's answer was not valid HTTP (an unrequested 100 Continue).";
  if (code === "UND_ERR_SOCKET" && message === "bad upgrade")
    return "The receiver's answer was not valid HTTP (an unrequested protocol upgrade).";
  switch (code) {
    case "ESSRF":
      return "Refused: the address resolves to a private or reserved network (not allowed for notifications).";
    case "EPORT_NOT_ALLOWED":
      return `Refused: port ${port} is not allowed for notifications (use 443, or a port from 1024 to 65535).`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name could not be resolved (DNS).";
    case "ECONNREFUSED":
      return "The receiver refused the connection (nothing listening).";
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return "The receiver closed the connection before answering (connection reset).";
    case "ETIMEDOUT":
    case "ENETUNREACH":
    case "EHOSTUNREACH":
    case "UND_ERR_CONNECT_TIMEOUT":
      return "The receiver could not be reached (network unreachable or connect timeout).";
    case "UND_ERR_HEADERS_OVERFLOW":
      return "The receiver's answer had headers too large to read (over 16 KiB).";
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return "The receiver stopped answering (timed out).";
    default:
      if (code?.startsWith("ERR_TLS") || code?.includes("CERT") || code?.startsWith("UNABLE_TO_"))
        return `The receiver's TLS certificate was not accepted (${code}).`;
      return `The request failed: ${message ?? String(error)}`;
  }
}
