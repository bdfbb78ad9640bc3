import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, logger, replaceLogger } from "@/lib/platform/observability/log";
import { metrics } from "@/lib/platform/observability/metrics";
import { tracingActive } from "@/lib/platform/observability/tracing";
import { FAST_ROUTES, type FastRoute } from "@/lib/server/fast-routes";
import { createRequestListener } from "@/lib/server/request-listener";
import { listen, send } from "../../support/http-server";

/*
 * Request ids and log lines on the production server's request handling, with neither METRICS_TOKEN nor
 * OTEL_EXPORTER_OTLP_ENDPOINT set: every answer carries X-Request-Id, every line logged while a request
 * runs carries the same id, /metrics does not exist and nothing of OpenTelemetry is registered.
 */

const lines: Array<Record<string, unknown>> = [];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const loggingRoute: FastRoute = {
  label: "GET /fast/log",
  methods: ["GET"],
  maxBodyBytes: 0,
  bind: (pathname) =>
    pathname === "/fast/log"
      ? async () => {
          logger().info("before the wait");
          await new Promise((resolve) => setTimeout(resolve, 20));
          logger().info("after the wait");
          throw new Error("the handler failed");
        }
      : null,
};

let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  delete process.env.METRICS_TOKEN;
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  replaceLogger(createLogger(sink));
  const listener = createRequestListener({
    nextHandler: (_req, res) => {
      logger().info("next.js answered");
      res.end("page");
    },
    routes: [loggingRoute, ...FAST_ROUTES],
    env: {},
  });
  ({ port, close } = await listen(listener));
});
afterAll(() => close());

describe("request ids", () => {
  it("are new UUIDs on every answer, fast routes and Next.js alike", async () => {
    const fast = await send(port, { path: "/api/public/leads" });
    const page = await send(port, { path: "/overview" });
    expect(fast.headers["x-request-id"]).toMatch(UUID);
    expect(page.headers["x-request-id"]).toMatch(UUID);
    expect(page.headers["x-request-id"]).not.toBe(fast.headers["x-request-id"]);
  });

  it("keep a well-formed X-Request-Id from the caller and replace a malformed one", async () => {
    const kept = await send(port, { path: "/overview", headers: { "x-request-id": "lb-7f3a9c21.0042" } });
    expect(kept.headers["x-request-id"]).toBe("lb-7f3a9c21.0042");
    for (const bad of ["short", "has space in it", `x${"y".repeat(200)}`, '"quoted-value-123"']) {
      const replaced = await send(port, { path: "/overview", headers: { "x-request-id": bad } });
      expect(replaced.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("are on every JSON log line written while the request runs, its error line included", async () => {
    lines.length = 0;
    const response = await send(port, { path: "/fast/log" });
    expect(response.status).toBe(500);
    const id = response.headers["x-request-id"];
    expect(lines.map((line) => line.msg)).toEqual([
      "before the wait",
      "after the wait",
      expect.stringContaining("the handler failed"),
    ]);
    for (const line of lines) expect(line).toMatchObject({ request_id: id, level: expect.any(String) });
    expect(lines[2].level).toBe("error");
    const page = await send(port, { path: "/events" });
    expect(lines.at(-1)).toMatchObject({ msg: "next.js answered", request_id: page.headers["x-request-id"] });
  });
});

describe("without METRICS_TOKEN and OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("has no /metrics and loads no tracing", async () => {
    const response = await send(port, { path: "/metrics", headers: { authorization: "Bearer anything" } });
    expect(response.status).toBe(404);
    expect(metrics()).toBeNull();
    expect(tracingActive()).toBe(false);
    // The OpenTelemetry API registers itself under this global once an SDK is set up.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("opentelemetry.js.api.1")]).toBeUndefined();
  });
});
