import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startOutboundWorker, type OutboundWorker } from "@/lib/outbound/worker";
import { newPublicId } from "@/lib/platform/ids";
import { startTracing, stopTracing } from "@/lib/platform/observability/tracing";
import { createRequestListener } from "@/lib/server/request-listener";
import { listen, send } from "../../support/http-server";
import { notify, startReceiver, subscribedAccount, waitFor, type Receiver } from "../outbound/support";

/*
 * Traces, exported span by span to an in-memory exporter: each fast route's request is a server span
 * (continuing a caller's traceparent) with its handler's spans as children, and each outbound delivery
 * attempt a span whose POST is its child and hands the trace on to the receiver.
 */

vi.setConfig({ testTimeout: 60_000 });

const exporter = new InMemorySpanExporter();
let port: number;
let close: () => Promise<void>;
let worker: OutboundWorker;
let receiver: Receiver;

beforeAll(async () => {
  expect(await startTracing({ exporter })).toBe(true);
  const listener = createRequestListener({ nextHandler: (_req, res) => res.end(), env: {} });
  ({ port, close } = await listen(listener));
  receiver = await startReceiver();
  worker = await startOutboundWorker({ concurrency: 2, log: () => {} });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await close();
  await stopTracing();
});

const spanNamed = (name: string, spans: ReadableSpan[] = exporter.getFinishedSpans()) => {
  const found = spans.filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0];
};
const isChildOf = (child: ReadableSpan, parent: ReadableSpan) =>
  child.parentSpanContext?.spanId === parent.spanContext().spanId &&
  child.spanContext().traceId === parent.spanContext().traceId;

describe("traces", () => {
  it("make a webhook request a server span continuing the caller's trace, the handler's span its child", async () => {
    exporter.reset();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await send(port, {
      method: "POST",
      path: `/api/v1/events/webhook/${newPublicId("source")}`,
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(404);
    const server = spanNamed("POST /api/v1/events/webhook/{sourceId}");
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(server.attributes["http.response.status_code"]).toBe(404);
    expect(isChildOf(spanNamed("events_webhook.handle"), server)).toBe(true);
  });

  it("make a public API request a server span with the key's authentication as its child", async () => {
    exporter.reset();
    const response = await send(port, {
      path: "/api/public/leads",
      headers: { authorization: `Bearer sk_live_${"x".repeat(40)}` },
    });
    expect(response.status).toBe(401);
    const server = spanNamed("GET /api/public/leads");
    expect(server.parentSpanContext).toBeUndefined();
    expect(isChildOf(spanNamed("api_key.authenticate"), server)).toBe(true);
  });

  it("make a chat request a server span with the visitor's access check as its child", async () => {
    exporter.reset();
    const response = await send(port, {
      method: "POST",
      path: `/api/chat/${newPublicId("widget")}/conversations/${newPublicId("conversation")}/messages`,
      headers: { "content-type": "application/json", "x-visitor-token": "t".repeat(43) },
      body: JSON.stringify({ text: "hello" }),
    });
    expect(response.status).toBe(404);
    const server = spanNamed("POST /api/chat/{widgetId}/conversations/{conversationId}/messages");
    expect(isChildOf(spanNamed("chat.access"), server)).toBe(true);
  });

  it("make each outbound attempt a span with its POST (passing the trace on) and its record as children", async () => {
    exporter.reset();
    const { accountId } = await subscribedAccount(receiver.url);
    await notify(accountId, "lead.created", { id: "lead_traced" });
    const [request] = await waitFor(() => (receiver.requests.length ? receiver.requests : null), 40_000);
    // The attempt's own trace: deliveries other test files left queued may be attempted meanwhile.
    const traceId = String(request.headers.traceparent).split("-")[1];
    const spans = await waitFor(() => {
      const ours = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
      return ours.some((span) => span.name === "outbound.record") ? ours : null;
    }, 40_000);
    const deliver = spanNamed("outbound.deliver", spans);
    const post = spanNamed("outbound.post", spans);
    expect(deliver.kind).toBe(4);
    expect(isChildOf(post, deliver)).toBe(true);
    expect(isChildOf(spanNamed("outbound.record", spans), deliver)).toBe(true);
    expect(post.attributes["http.response.status_code"]).toBe(204);
    expect(request.headers.traceparent).toBe(
      `00-${post.spanContext().traceId}-${post.spanContext().spanId}-0${post.spanContext().traceFlags}`,
    );
  });
});
