import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

/*
 * The request a piece of work belongs to, for the log lines it writes (log.ts). The production server
 * (lib/server/request-listener.ts) runs each request inside it, fast routes and Next.js alike. One store
 * per process under a global symbol: Next.js bundles this module into several chunks, and a route's copy
 * must see what the server's copy set.
 */

export type RequestContext = { requestId: string };

const KEY = Symbol.for("integration-access.request-context");
type Holder = { [KEY]?: AsyncLocalStorage<RequestContext> };

function storage(): AsyncLocalStorage<RequestContext> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new AsyncLocalStorage<RequestContext>();
  return holder[KEY];
}

export function runWithRequest<T>(context: RequestContext, work: () => T): T {
  return storage().run(context, work);
}

export function currentRequestId(): string | undefined {
  return storage().getStore()?.requestId;
}

/** A caller's own X-Request-Id is kept when it is a plain token (so it cannot forge log lines). */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

/** The request id to use: the client's, when well formed, or a new random one (UUID, as most proxies make). */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && WELL_FORMED.test(header) ? header : crypto.randomUUID();
}
