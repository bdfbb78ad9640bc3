import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import {
  apiNotFoundResponse,
  errorResponse,
  internalErrorResponse,
  methodNotAllowedResponse,
} from "@/lib/platform/http/api-error";
import { bodyLimitFor, formatBytes } from "@/lib/platform/http/body-limits";
import { CLIENT_IP_HEADER, resolveClientIp, trustedProxyHops, type Env } from "@/lib/platform/http/client-ip";
import { hstsFor, securityHeadersFor } from "@/lib/platform/http/security-headers";
import { routeRecorders, type RouteRecorder } from "@/lib/platform/observability/http-metrics";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { metrics } from "@/lib/platform/observability/metrics";
import { requestIdFrom, runWithRequest } from "@/lib/platform/observability/request-context";
import { inSpan, tracingActive } from "@/lib/platform/observability/tracing";
import { FAST_ROUTES, resolveFastPath, type FastRoute } from "./fast-routes";
import { nextRouteTemplates, UNMATCHED, type NextRouteTemplate } from "./next-routes";
import { ClientAborted, toFetchRequest, writeFetchResponse } from "./node-adapter";

/*
 * Every request the production server receives passes here first: the client IP is decided (from the
 * socket, or TRUSTED_PROXY_HOPS), security headers are set, a body over the path's limit is refused
 * before it is read, then the fast routes answer their paths and Next.js everything else. Each request
 * gets a request id (the caller's X-Request-Id when well formed, else a new one), sent back in
 * X-Request-Id and carried by every log line written while it runs; with metrics on, its count and
 * latency are recorded under its route template; with tracing on, a fast route runs in a server span.
 */

export type NextHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export type ListenerOptions = {
  nextHandler: NextHandler;
  routes?: readonly FastRoute[];
  env?: Env;
  logError?: (line: string) => void;
  /** The route template of a path Next.js answers (by default from the build's routes manifest). */
  nextRoutes?: NextRouteTemplate;
};

/** Slow or idle clients cannot hold connections for long; a load balancer's 60 s idle timeout stays below ours. */
export const SERVER_TIMEOUTS = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 65_000,
} as const;
export const DEFAULT_MAX_CONNECTIONS = 2_000;
/** After refusing a body, unread bytes are drained this long at most before the connection is cut. */
const LINGER_MS = 2_000;

export function configureServer(server: Server, env: Env = process.env): void {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  const cap = Number(env.MAX_CONNECTIONS ?? DEFAULT_MAX_CONNECTIONS);
  server.maxConnections = Number.isInteger(cap) && cap > 0 ? cap : DEFAULT_MAX_CONNECTIONS;
}

/** After the answer, the connection closes; bytes still arriving are discarded for a moment, then it is cut. */
function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.on("finish", () => {
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    timer.unref();
    req.socket.once("close", () => clearTimeout(timer));
  });
}

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  closeAfterResponse(req, res);
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const response = errorResponse(413, "payload_too_large", `The body is larger than ${formatBytes(limit)}.`);
  void writeFetchResponse(res, response, { head: req.method === "HEAD", close: true });
}

/*
 * A body without a Content-Length (chunked) is counted as Node.js hands it to the request stream; past
 * the limit nothing more is passed on, reading from the socket stops, and the client gets a 413.
 */
function capUnsizedBody(req: IncomingMessage, res: ServerResponse, limit: number): void {
  let received = 0;
  const push = req.push;
  req.push = function countedPush(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length;
      if (received > limit) {
        req.push = () => false;
        refuseTooLarge(req, res, limit);
        return false;
      }
    }
    return push.call(this, chunk, encoding);
  };
}

export function createRequestListener(options: ListenerOptions): RequestListener {
  const env = options.env ?? process.env;
  const routes = options.routes ?? FAST_ROUTES;
  const hops = trustedProxyHops(env);
  const hsts = hstsFor(env);
  const logError = options.logError ?? ((line: string) => logger().error(line));
  const metricsOn = metrics() !== null;
  const recorderFor = routeRecorders();
  const nextRoutes = metricsOn ? (options.nextRoutes ?? nextRouteTemplates()) : null;
  // Fast routes' recorders are bound once, at start-up.
  const fastRecorders = new Map<FastRoute, { template: string; record: RouteRecorder }>(
    routes.map((route) => {
      const template = route.template ?? route.label.slice(route.label.indexOf(" ") + 1);
      return [route, { template, record: recorderFor(template) }];
    }),
  );
  /** Counts the request once its answer is written (Next.js, refusals, errors: all but the fast routes). */
  const recordOnFinish = (req: IncomingMessage, res: ServerResponse, started: number, template: string) => {
    if (!metricsOn) return;
    const record = recorderFor(template);
    res.once("finish", () => record(req.method ?? "GET", res.statusCode, (performance.now() - started) / 1000));
  };

  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    if (error instanceof ClientAborted) return;
    // Name and message only: the request (its headers carry keys and cookies) is never logged. The id is
    // the one sent back in X-Request-Id (set on arrival), so a client's report finds this line.
    const { err } = errorFields(error);
    const id = String(res.getHeader("X-Request-Id") ?? "");
    logError(
      `[server] request ${id} ${req.method} ${(req.url ?? "").split("?", 1)[0]} failed: ${err.name}: ${err.message}`,
    );
    if (res.headersSent) {
      res.destroy();
      return;
    }
    void writeFetchResponse(res, internalErrorResponse(), { head: req.method === "HEAD", close: false });
  };
  const answer = (req: IncomingMessage, res: ServerResponse, response: Response) =>
    writeFetchResponse(res, response, { head: req.method === "HEAD", close: false }).catch((error: unknown) =>
      fail(req, res, error),
    );

  const handle = (req: IncomingMessage, res: ServerResponse, started: number) => {
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);

    // Whatever the client claims as its address is replaced by what the socket (and trusted proxies) say.
    const clientIp = resolveClientIp({
      remoteAddress: req.socket.remoteAddress,
      forwardedFor: req.headers["x-forwarded-for"],
      trustedHops: hops,
    });
    req.headers[CLIENT_IP_HEADER] = clientIp;
    for (const [name, value] of securityHeadersFor(pathname)) res.setHeader(name, value);
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);

    const limit = bodyLimitFor(pathname);
    const declared = req.headers["content-length"];
    const match = resolveFastPath(method, pathname, routes);
    if (declared !== undefined && Number(declared) > limit) {
      recordOnFinish(req, res, started, match?.kind === "route" ? fastRecorders.get(match.route)!.template : UNMATCHED);
      return refuseTooLarge(req, res, limit);
    }

    if (match === null) {
      if (nextRoutes) recordOnFinish(req, res, started, nextRoutes(pathname));
      if (declared === undefined && req.headers["transfer-encoding"] !== undefined) capUnsizedBody(req, res, limit);
      try {
        Promise.resolve(options.nextHandler(req, res)).catch((error: unknown) => fail(req, res, error));
      } catch (error) {
        fail(req, res, error);
      }
      return;
    }
    if (match.kind === "not_found") {
      recordOnFinish(req, res, started, UNMATCHED);
      return void answer(req, res, apiNotFoundResponse());
    }
    const fast = fastRecorders.get(match.route);
    if (match.kind === "method_not_allowed") {
      recordOnFinish(req, res, started, fast?.template ?? UNMATCHED);
      return void answer(req, res, methodNotAllowedResponse(match.allow));
    }
    const served = tracingActive()
      ? inSpan(
          `${method} ${fast?.template ?? UNMATCHED}`,
          {
            kind: "server",
            headers: req.headers,
            attributes: { "http.request.method": method, "http.route": fast?.template },
          },
          async (span) => {
            await serveFast(match.handler, match.maxBodyBytes, clientIp, req, res);
            span?.setAttribute("http.response.status_code", res.statusCode);
          },
        )
      : serveFast(match.handler, match.maxBodyBytes, clientIp, req, res);
    if (metricsOn && fast) {
      const { record } = fast;
      served.then(
        () => record(method, res.statusCode, (performance.now() - started) / 1000),
        (error: unknown) => {
          recordOnFinish(req, res, started, fast.template);
          fail(req, res, error);
        },
      );
    } else served.catch((error: unknown) => fail(req, res, error));
  };

  return (req, res) => {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    res.setHeader("X-Request-Id", requestId);
    runWithRequest({ requestId }, () => handle(req, res, started));
  };
}

async function serveFast(
  handler: (request: Request) => Promise<Response>,
  maxBodyBytes: number,
  clientIp: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { request, bodyUnread } = await toFetchRequest(req, {
    maxBodyBytes,
    override: { [CLIENT_IP_HEADER]: clientIp },
  });
  const response = await handler(request);
  if (bodyUnread) closeAfterResponse(req, res);
  await writeFetchResponse(res, response, { head: req.method === "HEAD", close: bodyUnread });
}
