import type { Attributes, Span, SpanKind, Tracer } from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace-node";

/*
 * OpenTelemetry traces (docs/operations.md, "Traces"), only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
 * startTracing() then imports the official Node SDK and the OTLP/HTTP exporter and registers them;
 * otherwise nothing of OpenTelemetry is loaded and inSpan() only runs its work. Spans nest through the
 * SDK's context manager (AsyncLocalStorage): a span started inside another's work is its child.
 *
 * The state lives under a global symbol, like the metrics: Next.js bundles this module into several chunks.
 */

type Tracing = {
  tracer: Tracer;
  api: typeof import("@opentelemetry/api");
  shutdown: () => Promise<void>;
};

const KEY = Symbol.for("integration-access.tracing");
type Holder = { [KEY]?: Tracing | Promise<Tracing | null> | null };

export type TracingOptions = {
  env?: NodeJS.ProcessEnv;
  /** Export to this instead of OTLP (tests), span by span. */
  exporter?: SpanExporter;
};

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

async function load(options: TracingOptions): Promise<Tracing | null> {
  const env = options.env ?? process.env;
  if (!options.exporter && !tracingEnabled(env)) return null;
  const api = await import("@opentelemetry/api");
  const { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-node");
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and _HEADERS, _TIMEOUT…) itself.
  const exporter =
    options.exporter ?? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || "integration-access" }),
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  // Sets the global provider, the AsyncLocalStorage context manager and the W3C traceparent propagator.
  provider.register();
  return { tracer: provider.getTracer("integration-access"), api, shutdown: () => provider.shutdown() };
}

/** Starts tracing once per process when it is configured; resolves whether it is on. */
export async function startTracing(options: TracingOptions = {}): Promise<boolean> {
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    const loading = load(options);
    holder[KEY] = loading;
    holder[KEY] = await loading;
  }
  return Boolean(await holder[KEY]);
}

/** Flushes and stops the exporter (a worker's or a test's end). */
export async function stopTracing(): Promise<void> {
  const holder = globalThis as Holder;
  const tracing = await holder[KEY];
  holder[KEY] = undefined;
  await tracing?.shutdown();
}

function active(): Tracing | null {
  const state = (globalThis as Holder)[KEY];
  return state && !(state instanceof Promise) ? state : null;
}

export type SpanOptions = {
  attributes?: Attributes;
  /** "server" for a request's own span, "client" for a call out, "consumer" for a queued job; else internal. */
  kind?: "server" | "client" | "consumer";
  /** Carrier of an incoming traceparent header: the span continues the caller's trace. */
  headers?: Record<string, string | string[] | undefined>;
};

const KINDS: Record<NonNullable<SpanOptions["kind"]>, SpanKind> = { server: 1, client: 2, consumer: 4 };

/**
 * Runs `work` inside a span named `name` (a child of the current span, if any). Without tracing it only
 * runs `work`. The span records a thrown error and ends when `work` settles.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | null) => Promise<T>): Promise<T> {
  const tracing = active();
  if (!tracing) return work(null);
  const { api, tracer } = tracing;
  const parent = options.headers
    ? api.propagation.extract(api.context.active(), options.headers, headerGetter)
    : api.context.active();
  const spanOptions = { attributes: options.attributes, kind: options.kind ? KINDS[options.kind] : 0 };
  return tracer.startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: api.SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The current trace as headers for a call out (traceparent), or none without tracing. */
export function traceHeaders(): Record<string, string> {
  const tracing = active();
  const carrier: Record<string, string> = {};
  tracing?.api.propagation.inject(tracing.api.context.active(), carrier);
  return carrier;
}

const headerGetter = {
  keys: (carrier: Record<string, string | string[] | undefined>) => Object.keys(carrier),
  get: (carrier: Record<string, string | string[] | undefined>, key: string) => carrier[key],
};

/** Whether spans are being made: lets a hot path skip even building a span's name. */
export function tracingActive(): boolean {
  return active() !== null;
}
