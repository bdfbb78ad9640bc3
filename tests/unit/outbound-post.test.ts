import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { post } from "@/lib/outbound/post";

/*
 * The attempt's own checks of an IP literal in a subscription's URL (no lookup runs for one), judged on
 * every attempt even though each URL is parsed once. Only loopback is ever connected to here.
 */

const REFUSED = "Refused: the address resolves to a private or reserved network (not allowed for notifications).";
let receiver: http.Server;
let port: number;
const before = process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;

beforeAll(async () => {
  receiver = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
afterEach(() => {
  if (before === undefined) delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
  else process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = before;
});

describe("post", () => {
  it("refuses a private IP literal without connecting, on every attempt", async () => {
    for (const url of ["http://10.0.0.1/hook", "http://169.254.169.254/latest", "http://10.0.0.1/hook"]) {
      const result = await post(url, {}, "{}", 1_000);
      expect(result).toMatchObject({ statusCode: null, error: REFUSED, durationMs: 0 });
    }
  });

  it("judges a loopback literal by the setting in force at each attempt, not at its first", async () => {
    const url = `http://127.0.0.1:${port}/hook`;
    process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    expect((await post(url, {}, "{}", 1_000)).statusCode).toBe(204);
    delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    expect(await post(url, {}, "{}", 1_000)).toMatchObject({ statusCode: null, error: REFUSED });
    process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    expect((await post(url, {}, "{}", 1_000)).statusCode).toBe(204);
  });

  it("sends to the URL's path and query, with the body's length", async () => {
    const seen: Array<{ url?: string; length?: string; body: string }> = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        seen.push({ url: req.url, length: req.headers["content-length"], body });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a/b?x=1&y=é`;
      const result = await post(url, { "content-type": "application/json" }, '{"name":"Zoë"}', 1_000);
      expect(result).toMatchObject({ statusCode: 200, excerpt: "ok", error: null });
      expect(seen).toEqual([{ url: "/a/b?x=1&y=%C3%A9", length: "15", body: '{"name":"Zoë"}' }]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
