import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { post } from "@/lib/outbound/post";
import { listen, listening } from "../support/http-server";

/*
 * The attempt's own checks of an IP literal in a subscription's URL (no lookup runs for one), judged on
 * every attempt even though each URL is parsed once. Only loopback is ever connected to here.
 */

const REFUSED = "Refused: the address resolves to a private or reserved network (not allowed for notifications).";
let receiver: Awaited<ReturnType<typeof listen>>;
let port: number;
const before = process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;

beforeAll(async () => {
  receiver = await listen((req, res) => req.resume().on("end", () => res.writeHead(204).end()));
  port = receiver.port;
});
afterAll(() => receiver.close());
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
    const server = await listen((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        seen.push({ url: req.url, length: req.headers["content-length"], body });
        res.writeHead(200).end("ok");
      });
    });
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      const url = `http://127.0.0.1:${server.port}/a/b?x=1&y=é`;
      const result = await post(url, { "content-type": "application/json" }, '{"name":"Zoë"}', 1_000);
      expect(result).toMatchObject({ statusCode: 200, excerpt: "ok", error: null });
      expect(seen).toEqual([{ url: "/a/b?x=1&y=%C3%A9", length: "15", body: '{"name":"Zoë"}' }]);
    } finally {
      await server.close();
    }
  });

  it("refuses private IPv6 literals, and those that embed a private IPv4 address, without connecting", async () => {
    delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    for (const url of [
      "http://[fd00::1]/hook",
      "http://[fe80::1]/hook",
      "http://[::ffff:10.0.0.1]/hook",
      "http://[64:ff9b::a00:1]/hook",
      "http://[::1]/hook",
    ]) {
      expect(await post(url, {}, "{}", 1_000)).toMatchObject({ statusCode: null, error: REFUSED, durationMs: 0 });
    }
  });

  it("refuses a port other than 443 or 1024–65535 without connecting (a URL stored before the rule)", async () => {
    delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    const targets = [
      ["https://93.184.215.14:22/x", 22],
      ["https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:25/", 25],
      ["https://hooks.example.com:1023/", 1023],
    ] as const;
    for (const [url, port] of targets) {
      const error = `Refused: port ${port} is not allowed for notifications (use 443, or a port from 1024 to 65535).`;
      expect(await post(url, {}, "{}", 1_000)).toMatchObject({ statusCode: null, error, durationMs: 0 });
    }
  });

  it("lets a loopback target use any port when loopback targets are allowed", async () => {
    process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    // Port 9 (discard) has no listener here: the attempt connects and is refused by the system, not by the rule.
    const result = await post("http://127.0.0.1:9/hook", {}, "{}", 1_000);
    expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/refused the connection/) });
  });

  it("sends to [::1] when loopback targets are allowed", async () => {
    const server = await listen((req, res) => req.resume().on("end", () => res.writeHead(204).end()), undefined, "::1");
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      expect(await post(`http://[::1]:${server.port}/hook`, {}, "{}", 1_000)).toMatchObject({
        statusCode: 204,
        error: null,
      });
    } finally {
      await server.close();
    }
  });

  it("judges a host name by the address it resolves to, when connecting", async () => {
    const url = `http://localhost:${port}/hook`;
    delete process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS;
    expect(await post(url, {}, "{}", 1_000)).toMatchObject({ statusCode: null, error: REFUSED });
    process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    expect((await post(url, {}, "{}", 1_000)).statusCode).toBe(204);
  });

  it("sends a URL's credentials as Basic authentication, percent-decoded, and not in the path", async () => {
    const seen: Array<{ url?: string; authorization?: string }> = [];
    const server = await listen((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      req.resume().on("end", () => res.writeHead(204).end());
    });
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      expect((await post(`http://us%40er:p%3Ass@127.0.0.1:${server.port}/hook`, {}, "{}", 1_000)).statusCode).toBe(204);
      expect(seen).toEqual([{ url: "/hook", authorization: `Basic ${Buffer.from("us@er:p:ss").toString("base64")}` }]);
    } finally {
      await server.close();
    }
  });

  it("keeps the status of an answer whose connection drops in the middle of its body", async () => {
    const server = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { "content-length": "100" });
      res.write("partial", () => res.socket?.destroy());
    });
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      expect(await post(`http://127.0.0.1:${server.port}/hook`, {}, "{}", 1_000)).toMatchObject({
        statusCode: 200,
        error: null,
      });
    } finally {
      await server.close();
    }
  });

  it("ends at the deadline when the body of an answer stalls, and the next attempt is unaffected", async () => {
    let stall = true;
    let headersWritten = false;
    let requests = 0;
    const server = await listen((req, res) => {
      requests += 1;
      req.resume();
      if (stall) res.writeHead(200).write("started", () => (headersWritten = true));
      else req.on("end", () => res.writeHead(204).end());
    });
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      const url = `http://127.0.0.1:${server.port}/hook`;
      const result = await post(url, {}, "{}", 300);
      expect(result).toMatchObject({ statusCode: null, error: "No answer within 0.3 seconds (timed out)." });
      expect(result.durationMs).toBeGreaterThanOrEqual(290);
      expect(headersWritten).toBe(true);
      stall = false;
      expect((await post(url, {}, "{}", 1_000)).statusCode).toBe(204);
      // The aborted request is never sent again (undici may open a spare connection, nodejs/undici#5845).
      expect(requests).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("drops an attempt whose deadline passed while waiting for a free connection, never sending it", async () => {
    const paths: string[] = [];
    // Never answers: every connection of the pool to this receiver (256) stays busy until its deadline.
    const server = await listen((req) => {
      paths.push(req.url ?? "");
      req.resume();
    });
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      const url = `http://127.0.0.1:${server.port}`;
      const busy = Array.from({ length: 256 }, (_, i) => post(`${url}/busy/${i}`, {}, "{}", 800));
      await expect.poll(() => paths.length, { timeout: 5_000 }).toBe(256);
      const waiting = await post(`${url}/waiting`, {}, "{}", 200);
      expect(waiting).toMatchObject({
        statusCode: null,
        error: "No connection to the receiver within 0.2 seconds (connect timeout).",
      });
      // The busy attempts time out and free their connections; the waiting one must not be sent then.
      await Promise.all(busy);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(paths).toHaveLength(256);
      expect(paths).not.toContain("/waiting");
    } finally {
      await server.close();
    }
  });

  it("stops reading a huge answer after 64 KiB and keeps its first 4 KiB", async () => {
    const LIMIT = 64 * 1024 * 1024;
    let written = 0;
    let requests = 0;
    const server = await listen((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, "y");
      const more = () => {
        // Writes until the client stops reading (64 MB at most, more than the sockets' buffers can hold).
        while (written < LIMIT && res.write(chunk)) written += chunk.length;
        if (written < LIMIT && !res.destroyed) res.once("drain", more);
        else res.end();
      };
      more();
    });
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      const result = await post(`http://127.0.0.1:${server.port}/hook`, {}, "{}", 5_000);
      expect(result).toMatchObject({ statusCode: 200, error: null });
      expect(result.excerpt).toBe("y".repeat(4 * 1024));
      expect(written).toBeLessThan(LIMIT);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(requests).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("says in words when an answer is not HTTP or its headers are too large, and skips an early hint", async () => {
    process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
    for (const [answer, error] of [
      ["HTTP/1.1 200 OK\r\nnot a header\r\n\r\n", /^The receiver's answer was not valid HTTP \(.+\)\.$/],
      [
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
        /^The receiver's answer was not valid HTTP \(an unrequested 100 Continue\)\.$/,
      ],
      [
        "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
        /^The receiver's answer was not valid HTTP \(an unrequested protocol upgrade\)\.$/,
      ],
      ["HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", null],
      [
        `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}\r\n\r\n`,
        /^The receiver's answer had headers too large to read/,
      ],
    ] as const) {
      const server = await answerWith(answer);
      try {
        const result = await post(`http://127.0.0.1:${server.port}/hook`, {}, "{}", 1_000);
        if (error === null) {
          expect(result).toMatchObject({ statusCode: 200, excerpt: "ok", error: null });
        } else {
          expect(result.statusCode).toBeNull();
          expect(result.error).toMatch(error);
        }
      } finally {
        await server.close();
      }
    }
  });

  it("takes the first Retry-After when an answer sends it twice", async () => {
    const server = await answerWith(
      "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nRetry-After: 9\r\nContent-Length: 0\r\n\r\n",
    );
    try {
      process.env.OUTBOUND_ALLOW_LOOPBACK_TARGETS = "1";
      expect(await post(`http://127.0.0.1:${server.port}/hook`, {}, "{}", 1_000)).toMatchObject({
        statusCode: 429,
        retryAfter: "7",
      });
    } finally {
      await server.close();
    }
  });
});

/** A server that writes the same raw bytes in answer to any request. */
async function answerWith(answer: string): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket.on("close", () => sockets.delete(socket)));
    socket.on("error", () => {}).once("data", () => socket.end(answer));
  });
  const port = await listening(server);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
