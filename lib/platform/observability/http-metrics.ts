import { metrics, type MetricSet } from "./metrics";

/*
 * Request counts and latencies per route template (docs/operations.md, "Metrics"). A recorder is made
 * once per template when the server starts; it binds one counter and one histogram child per method and
 * status the first time it sees them, so a request costs two lookups in a small map and no label object.
 * Methods outside the usual set count as "OTHER", so a client cannot grow the series by inventing them.
 */

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const METHOD_INDEX = new Map<string, number>(METHODS.map((method, index) => [method, index]));
const OTHER_METHOD = METHODS.length;

type Children = { count: { inc: () => void }; duration: { observe: (seconds: number) => void } };

export type RouteRecorder = (method: string, status: number, seconds: number) => void;

const noop: RouteRecorder = () => {};

function bind(set: MetricSet, route: string, methodIndex: number, status: number): Children {
  const method = methodIndex === OTHER_METHOD ? "OTHER" : METHODS[methodIndex];
  const statusLabel = status >= 100 && status <= 599 ? String(status) : "other";
  return {
    count: set.httpRequests.labels(route, method, statusLabel),
    duration: set.httpDuration.labels(route, method, statusLabel),
  };
}

/** A recorder for one route template ("/api/v1/leads/:id"), or a no-op when metrics are off. */
export function routeRecorder(route: string): RouteRecorder {
  const set = metrics();
  if (!set) return noop;
  // Keyed by status * 8 + method index: a number, so a lookup allocates nothing.
  const children = new Map<number, Children>();
  return (method, status, seconds) => {
    const methodIndex = METHOD_INDEX.get(method) ?? OTHER_METHOD;
    const key = status * 8 + methodIndex;
    let bound = children.get(key);
    if (!bound) {
      bound = bind(set, route, methodIndex, status);
      children.set(key, bound);
    }
    bound.count.inc();
    bound.duration.observe(seconds);
  };
}

/** Recorders by template, made on first use (Next.js routes are known only from its manifest). */
export function routeRecorders(): (route: string) => RouteRecorder {
  const recorders = new Map<string, RouteRecorder>();
  return (route) => {
    let recorder = recorders.get(route);
    if (!recorder) {
      recorder = routeRecorder(route);
      recorders.set(route, recorder);
    }
    return recorder;
  };
}
