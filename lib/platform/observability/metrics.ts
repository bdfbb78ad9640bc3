import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/*
 * The process's Prometheus metrics (docs/operations.md, "Metrics"). Off unless METRICS_TOKEN is set:
 * then every recorder below is a no-op and nothing is registered. Labels only ever carry values from
 * small fixed sets (route templates, methods, statuses, error codes, outcomes), never ids, keys or
 * account names, so the number of series stays bounded however many accounts send traffic.
 *
 * The set lives under a global symbol: Next.js bundles this module into several chunks (the
 * instrumentation hook, each route), and every copy must count into the one registry /metrics reads.
 */

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

export type WebhookOutcome = "accepted" | "duplicate" | "unavailable" | (string & {});
export type DeliveryAttemptOutcome = "succeeded" | "retry" | "failed" | "disabled";
export type ChatReplyOutcome = "assistant" | "handoff" | "waiting_for_person";
export type CalendarSyncOutcome = "succeeded" | "not_modified" | "failed";

function createMetricSet(registry: Registry) {
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  return {
    registry,
    httpRequests: counter("http_requests_total", "Requests answered, by route template, method and status.", [
      "route",
      "method",
      "status",
    ]),
    httpDuration: histogram(
      "http_request_duration_seconds",
      "Time from the request's arrival to the end of its response, by route template, method and status.",
      ["route", "method", "status"],
      LATENCY_BUCKETS,
    ),
    webhookOutcomes: counter(
      "webhook_outcomes_total",
      "Events webhook answers by outcome: accepted, duplicate or the error code sent.",
      ["code"],
    ),
    deliveryAttempts: counter(
      "outbound_attempts_total",
      "Outbound delivery attempts made by this process's worker, by what they led to.",
      ["outcome"],
    ),
    deliveryLag: histogram(
      "outbound_delivery_lag_seconds",
      "From when a delivery was due (its message written, or its retry's time) to the start of its attempt.",
      ["attempt"],
      LAG_BUCKETS,
    ),
    chatReplies: counter("chat_replies_total", "Visitor chat messages by how they were answered.", ["outcome"]),
    calendarSyncs: counter("calendar_syncs_total", "Calendar feed syncs by outcome.", ["outcome"]),
  };
}

export type MetricSet = ReturnType<typeof createMetricSet>;

const KEY = Symbol.for("integration-access.metrics");
type Holder = { [KEY]?: MetricSet | null };

/** Whether /metrics is served at all: only with a token to protect it. */
export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.METRICS_TOKEN);
}

/** The process's metrics, or null when they are off (decided once, on first use). */
export function metrics(): MetricSet | null {
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    if (!metricsEnabled()) holder[KEY] = null;
    else {
      const registry = new Registry();
      collectDefaultMetrics({ register: registry });
      // Gauges named like counters, which promtool's checks refuse; the per-type gauges beside them stay.
      for (const name of [
        "nodejs_active_handles_total",
        "nodejs_active_requests_total",
        "nodejs_active_resources_total",
      ])
        registry.removeSingleMetric(name);
      holder[KEY] = createMetricSet(registry);
    }
  }
  return holder[KEY];
}

/** A gauge read when /metrics is scraped; `collect` sets its values. Registered once per name. */
export function scrapeGauge<L extends string>(
  set: MetricSet,
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: (gauge: Gauge<L>) => Promise<void> | void,
): void {
  if (set.registry.getSingleMetric(name)) return;
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [set.registry],
    async collect() {
      await collect(this);
    },
  });
}

// Children bound once per label value: the hot paths only increment.
function boundCounter<T extends string>(pick: (set: MetricSet) => Counter<string>) {
  const children = new Map<string, { inc: () => void }>();
  return (value: T) => {
    const set = metrics();
    if (!set) return;
    let child = children.get(value);
    if (!child) {
      child = pick(set).labels(value);
      children.set(value, child);
    }
    child.inc();
  };
}

/** One answer of the events webhook: "accepted", "duplicate" or the error code it sent. */
export const recordWebhookOutcome = boundCounter<WebhookOutcome>((set) => set.webhookOutcomes);
/** One outbound delivery attempt, once its outcome is decided. */
export const recordDeliveryAttempt = boundCounter<DeliveryAttemptOutcome>((set) => set.deliveryAttempts);
/** One visitor chat message and how it was answered. */
export const recordChatReply = boundCounter<ChatReplyOutcome>((set) => set.chatReplies);
/**
 * One calendar feed sync (lib/calendar-feeds): "succeeded" when the feed was read and applied,
 * "not_modified" when the server answered 304 or the content was unchanged, "failed" otherwise.
 */
export const recordCalendarSync = boundCounter<CalendarSyncOutcome>((set) => set.calendarSyncs);

const lagChildren: Partial<Record<"first" | "retry", { observe: (value: number) => void }>> = {};

/** The lag of one delivery attempt, in seconds: a first attempt or a retry. */
export function recordDeliveryLag(attempt: "first" | "retry", seconds: number): void {
  const set = metrics();
  if (!set || !Number.isFinite(seconds)) return;
  const child = (lagChildren[attempt] ??= set.deliveryLag.labels(attempt));
  child.observe(Math.max(0, seconds));
}
