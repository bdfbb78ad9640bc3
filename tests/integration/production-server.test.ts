import crypto from "node:crypto";
import fs from "node:fs/promises";
import type http from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { signInAction } from "@/app/(auth)/sign-in/actions";
import { signUpAction } from "@/app/(auth)/sign-up/actions";
import { errorResponse, jsonResponse } from "@/lib/platform/http/api-error";
import { CSV_IMPORT_PATHS, DEFAULT_BODY_LIMIT_BYTES } from "@/lib/platform/http/body-limits";
import { CLIENT_IP_HEADER } from "@/lib/platform/http/client-ip";
import { FAST_ROUTES, type FastRoute } from "@/lib/server/fast-routes";
import { PRODUCTION_SERVER_KEY, readProductionServer, registerProductionServer } from "@/lib/server/registry";
import {
  configureServer,
  createRequestListener,
  SERVER_TIMEOUTS,
  type NextHandler,
} from "@/lib/server/request-listener";
import { listen, send, sendPartial } from "../support/http-server";
import { PUBLIC_ROUTES } from "@/lib/public-api/routes";
import { CHAT_ROUTES } from "@/lib/conversations/visitor-http";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";
import { createAccount, uniqueEmail } from "../support/factories";
import { redirectOf, setRequestHeaders, signOut } from "../support/request-context";
import { randomIp } from "../support/visitor-chat";

/*
 * The production server's request handling (lib/server), on real node:http servers on 127.0.0.1: the
 * fast routes are small test routes (and, at the end, the real table), Next.js is a stand-in handler.
 */

type Seen = { bodyBytes: number; clientIp: string | undefined; path: string };

function testRoutes(seen: Seen[]): FastRoute[] {
  const record = async (request: Request) => {
    const bytes = request.body ? (await request.arrayBuffer()).byteLength : 0;
    seen.push({
      bodyBytes: bytes,
      clientIp: request.headers.get(CLIENT_IP_HEADER) ?? undefined,
      path: new URL(request.url).pathname,
    });
    return bytes;
  };
  return [
    {
      label: "GET|HEAD /fast/cookies",
      methods: ["GET", "HEAD"],
      maxBodyBytes: 0,
      bind: (pathname) =>
        pathname === "/fast/cookies"
          ? async (request) => {
              await record(request);
              const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
              headers.append("set-cookie", "a=1; Path=/; HttpOnly");
              headers.append("set-cookie", "b=2; Path=/; Secure");
              return new Response(JSON.stringify({ ok: true, cookies: 2 }), { headers });
            }
          : null,
    },
    {
      label: "POST /fast/echo",
      methods: ["POST"],
      maxBodyBytes: 1000,
      bind: (pathname) =>
        pathname === "/fast/echo"
          ? async (request) => {
              const bytes = await record(request);
              const declared = Number(request.headers.get("content-length") ?? 0);
              return bytes > 1000 || declared > 1000
                ? errorResponse(413, "payload_too_large", "too large")
                : jsonResponse({ bytes });
            }
          : null,
    },
    {
      label: "GET /fast/boom",
      methods: ["GET"],
      maxBodyBytes: 0,
      bind: (pathname) =>
        pathname === "/fast/boom"
          ? async () => {
              throw new Error("database exploded");
            }
          : null,
    },
  ];
}

/** Next.js stand-in: reads the whole body, then answers how much it got and which client IP it saw. */
function fakeNext(seen: Seen[]): NextHandler {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on("end", () => {
      seen.push({
        bodyBytes: bytes,
        clientIp: req.headers[CLIENT_IP_HEADER] as string | undefined,
        path: req.url ?? "",
      });
      if (res.headersSent) return;
      res.setHeader("content-type", "text/plain");
      res.end(`next:${bytes}`);
    });
  };
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!();
});

type StartOptions = { env?: Record<string, string>; routes?: readonly FastRoute[]; nextHandler?: NextHandler };

async function start(options: StartOptions = {}) {
  const seen: Seen[] = [];
  const logged: string[] = [];
  const listener = createRequestListener({
    nextHandler: options.nextHandler ?? fakeNext(seen),
    routes: options.routes ?? testRoutes(seen),
    env: options.env ?? {},
    logError: (line) => logged.push(line),
  });
  const { port, close, server } = await listen(listener, (created) => configureServer(created, {}));
  servers.push(close);
  return { port, seen, logged, server };
}

describe("production server: Node ↔ Fetch adapter", () => {
  it("keeps every Set-Cookie header of a fast route's response", async () => {
    const { port } = await start();
    const response = await send(port, { path: "/fast/cookies" });
    expect(response.status).toBe(200);
    expect(response.headers["set-cookie"]).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; Secure"]);
    expect(JSON.parse(response.body)).toEqual({ ok: true, cookies: 2 });
  });

  it("answers HEAD with the GET's headers and length but no body", async () => {
    const { port } = await start();
    const get = await send(port, { path: "/fast/cookies" });
    const head = await send(port, { method: "HEAD", path: "/fast/cookies" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("sets the security headers on fast and Next.js responses, and HSTS only for an https public URL", async () => {
    const plain = await start();
    for (const path of ["/fast/cookies", "/knowledge/events"]) {
      const response = await send(plain.port, { path });
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(response.headers["x-frame-options"]).toBe("DENY");
      expect(response.headers["strict-transport-security"]).toBeUndefined();
    }
    const secure = await start({ env: { NEXTAUTH_URL: "https://app.example.com" } });
    for (const path of ["/fast/cookies", "/knowledge/events"]) {
      expect((await send(secure.port, { path })).headers["strict-transport-security"]).toBe(
        "max-age=63072000; includeSubDomains",
      );
    }
  });

  it("replaces a client-sent X-Client-IP with the socket address, for fast routes and Next.js alike", async () => {
    const { port, seen } = await start();
    await send(port, { path: "/fast/cookies", headers: { "x-client-ip": "6.6.6.6", "x-forwarded-for": "7.7.7.7" } });
    await send(port, { path: "/sign-in", headers: { "x-client-ip": "6.6.6.6" } });
    expect(seen.map((entry) => entry.clientIp)).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("trusts X-Forwarded-For only as far as TRUSTED_PROXY_HOPS says", async () => {
    const { port, seen } = await start({ env: { TRUSTED_PROXY_HOPS: "1" } });
    await send(port, { path: "/fast/cookies", headers: { "x-forwarded-for": "6.6.6.6, 198.51.100.7" } });
    expect(seen[0].clientIp).toBe("198.51.100.7");
  });

  it("answers 500 with the JSON error body and a request id, and logs the error without request headers", async () => {
    const { port, logged } = await start();
    const response = await send(port, {
      path: "/fast/boom",
      headers: { authorization: "Bearer sk_live_secret_value" },
    });
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      ok: false,
      error: { code: "internal_error", message: expect.any(String), details: [] },
    });
    const id = response.headers["x-request-id"] as string;
    expect(id).toBeTruthy();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(id);
    expect(logged[0]).toContain("database exploded");
    expect(logged[0]).not.toContain("sk_live_secret_value");
  });
});

describe("production server: body limits", () => {
  it("refuses a declared Content-Length over the limit with 413 before the body is sent, then closes", async () => {
    const { port, seen } = await start();
    const started = Date.now();
    const response = await sendPartial(port, {
      path: "/knowledge/events",
      declared: 64 * 1024 * 1024,
      sent: 16 * 1024,
    });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({
      ok: false,
      error: { code: "payload_too_large", message: "The body is larger than 1 MiB.", details: [] },
    });
    await response.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen).toEqual([]);
  });

  it("stops reading a chunked body for Next.js at the limit and answers 413", async () => {
    const { port, seen } = await start();
    const chunk = Buffer.alloc(64 * 1024, 98);
    const response = await send(port, {
      method: "POST",
      path: "/settings/api-keys",
      body: Array.from({ length: 32 }, () => chunk),
    });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(seen.every((entry) => entry.bodyBytes <= DEFAULT_BODY_LIMIT_BYTES)).toBe(true);
  });

  it("passes bodies within the limit to Next.js whole, chunked or not", async () => {
    const { port } = await start();
    expect((await send(port, { method: "POST", path: "/knowledge/events", body: Buffer.alloc(500_000) })).body).toBe(
      "next:500000",
    );
    const chunks = Array.from({ length: 4 }, () => Buffer.alloc(100_000));
    expect((await send(port, { method: "POST", path: "/knowledge/events", body: chunks })).body).toBe("next:400000");
  });

  it("allows each CSV import path (events and leads) 6 MB, and no other path more than 1 MiB", async () => {
    const { port } = await start();
    const body = Buffer.alloc(6_000_000, 99);
    for (const route of ["/knowledge/events/import", "/leads/import"])
      expect((await send(port, { method: "POST", path: route, body })).body).toBe("next:6000000");
    expect((await sendPartial(port, { path: "/knowledge/events", declared: 6_000_000, sent: 1024 })).status).toBe(413);
    expect((await sendPartial(port, { path: "/leads", declared: 2_000_000, sent: 1024 })).status).toBe(413);
  });

  it("knows every route of the app that takes a CSV upload as an import path", async () => {
    const routes = (await fs.readdir("app", { recursive: true })).filter((file) => file.endsWith("route.ts"));
    const uploads: string[] = [];
    for (const file of routes) {
      if (!(await fs.readFile(path.join("app", file), "utf8")).includes("csvUploadRoute(")) continue;
      uploads.push(
        `/${path
          .dirname(file)
          .split(path.sep)
          .filter((part) => !part.startsWith("("))
          .join("/")}`,
      );
    }
    expect(uploads.sort()).toEqual([...CSV_IMPORT_PATHS].sort());
  });

  it("gives a fast route at most its limit plus one byte of a chunked body, then closes the connection", async () => {
    const { port, seen } = await start();
    const response = await send(port, {
      method: "POST",
      path: "/fast/echo",
      body: [Buffer.alloc(800), Buffer.alloc(800), Buffer.alloc(800)],
    });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(seen[0].bodyBytes).toBe(1001);
  });

  it("leaves a declared body over a fast route's limit unread: the handler decides from the header", async () => {
    const { port, seen } = await start();
    const response = await sendPartial(port, { path: "/fast/echo", declared: 500_000, sent: 10 });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(seen[0].bodyBytes).toBe(0);
  });

  it("passes a fast route's body within its limit through byte for byte", async () => {
    const { port } = await start();
    const response = await send(port, {
      method: "POST",
      path: "/fast/echo",
      body: "x".repeat(1000),
      headers: { connection: "keep-alive" },
    });
    expect(JSON.parse(response.body)).toEqual({ bytes: 1000 });
    expect(response.headers.connection).not.toBe("close");
  });

  it("sets request, header and keep-alive timeouts and a connection cap", async () => {
    const { server } = await start();
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
    expect(server.maxConnections).toBeGreaterThan(0);
    expect(server.maxConnections).toBeLessThan(Infinity);
  });
});

describe("production server: the real fast routes", () => {
  it("answers JSON 404 for paths below the webhook's, and 405 with Allow for a wrong method", async () => {
    const { port, seen } = await start({ routes: FAST_ROUTES });
    const deeper = await send(port, { method: "POST", path: "/api/v1/events/webhook/src_abc/x", body: "{}" });
    expect(deeper.status).toBe(404);
    expect(JSON.parse(deeper.body).error.code).toBe("not_found");
    const wrongMethod = await send(port, { path: "/api/v1/events/webhook/src_abc" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("POST");
    expect(JSON.parse(wrongMethod.body).error.code).toBe("method_not_allowed");
    const meByPost = await send(port, { method: "POST", path: "/api/public/zapier/me" });
    expect(meByPost.status).toBe(405);
    expect(meByPost.headers.allow).toBe("GET, HEAD");
    expect(seen).toEqual([]);
  });

  it("serves the webhook and /me from lib/ handlers (an unknown source, a missing key)", async () => {
    const { port } = await start({ routes: FAST_ROUTES });
    const webhook = await send(port, {
      method: "POST",
      path: "/api/v1/events/webhook/src_000000000000000000000000",
      body: "{}",
    });
    expect(webhook.status).toBe(404);
    expect(JSON.parse(webhook.body).error.code).toBe("source_not_found");
    const me = await send(port, { path: "/api/public/zapier/me" });
    expect(me.status).toBe(401);
    expect(me.headers["www-authenticate"]).toBe('Bearer realm="api"');
  });
});

describe("production server: the chat endpoints on the fast path", () => {
  it("carries a visitor through start, message, poll and handoff, throttled by the address it decided", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const { port, seen } = await start({ routes: FAST_ROUTES, env: { TRUSTED_PROXY_HOPS: "1" } });
    const ip = randomIp();
    const post = (path: string, body: unknown, token?: string) =>
      send(port, {
        method: "POST",
        path: `/api/chat/${widget.id}/conversations${path}`,
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": ip,
          ...(token ? { "x-visitor-token": token } : {}),
        },
        body: JSON.stringify(body),
      });

    const started = await post("", { text: "Hello" });
    expect(started.status).toBe(201);
    const { conversation, visitor_token: token } = JSON.parse(started.body) as {
      conversation: { id: string };
      visitor_token: string;
    };
    expect((await post(`/${conversation.id}/messages`, { text: "Anything tonight?" }, token)).status).toBe(201);
    const polled = await send(port, {
      path: `/api/chat/${widget.id}/conversations/${conversation.id}/messages?after=0`,
      headers: { "x-forwarded-for": ip, "x-visitor-token": token },
    });
    expect(polled.status).toBe(200);
    expect((JSON.parse(polled.body) as { messages: { author: string }[] }).messages.map((m) => m.author)).toEqual([
      "assistant",
      "visitor",
      "assistant",
      "visitor",
      "assistant",
    ]);
    expect(JSON.parse((await post(`/${conversation.id}/handoff`, {}, token)).body).conversation.status).toBe(
      "handoff_requested",
    );
    expect((await post(`/${conversation.id}/messages`, { text: "x" }, "not-the-token")).status).toBe(404);
    expect((await send(port, { method: "DELETE", path: `/api/chat/${widget.id}/conversations` })).headers.allow).toBe(
      "POST",
    );
    // Counted against the forwarded address the listener resolved, not the socket's 127.0.0.1.
    const { rows } = await db.pool.query<{ points: number }>("SELECT points FROM rate_limits WHERE key = $1", [
      `chat-msg-ip:${ip}`,
    ]);
    expect(rows[0]?.points).toBe(4);
    expect(seen).toEqual([]);
  });
});

/**
 * Next.js stand-in for the auth pages: runs the real sign-in or sign-up action (by path) on the JSON body's
 * fields, with the request headers the listener passed on, and answers the action's state or redirect.
 */
function authActionsNext(): NextHandler {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const form = new FormData();
      const fields = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>;
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      const headers = Object.entries(req.headers).filter((entry) => typeof entry[1] === "string");
      setRequestHeaders(Object.fromEntries(headers) as Record<string, string>);
      signOut();
      const action = req.url === "/sign-up" ? signUpAction : signInAction;
      let state: unknown = null;
      redirectOf(async () => {
        state = await action(null, form);
      }).then((target) => res.end(JSON.stringify(target ? { redirect: target } : state)));
    });
  };
}

type AuthAnswer = { redirect?: string; error?: string };

describe("production server: per-IP limits count an IPv6 /64 as one client", () => {
  const saved = { ...process.env };
  const tuned = [
    "SIGN_UP_LIMIT_PER_IP_PER_HOUR",
    "CHAT_MESSAGES_PER_IP_PER_MINUTE",
    "CHAT_CONVERSATIONS_PER_IP_PER_HOUR",
    "CHAT_POLLS_PER_IP_PER_MINUTE",
  ];
  afterEach(() => {
    for (const name of tuned) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  /** A fresh /64 per call: `at(n)` is an address in it, as the one trusted proxy would forward it. */
  const randomPrefix = () => {
    const prefix = `2001:db8:${crypto.randomInt(0x10000).toString(16)}:${crypto.randomInt(0x10000).toString(16)}`;
    return { at: (n: number) => `${prefix}:${n.toString(16)}:0:0:${crypto.randomInt(1, 0x10000).toString(16)}` };
  };

  async function authServer() {
    const { port } = await start({ env: { TRUSTED_PROXY_HOPS: "1" }, nextHandler: authActionsNext() });
    return async (path: "/sign-in" | "/sign-up", address: string, fields: Record<string, string>) => {
      const headers = { "x-forwarded-for": address };
      const response = await send(port, { method: "POST", path, headers, body: JSON.stringify(fields) });
      return JSON.parse(response.body) as AuthAnswer;
    };
  }

  it("makes two addresses of one /64 share the sign-in IP counter, and leaves another /64 alone", async () => {
    const post = await authServer();
    const attacker = randomPrefix();
    for (let attempt = 0; attempt < 30; attempt++) {
      const wrong = { email: uniqueEmail(), password: "wrong password!" };
      expect((await post("/sign-in", attacker.at(attempt), wrong)).error).toBe("The email or password is incorrect.");
    }
    const { user, password } = await createAccount();
    // A 31st address of the same /64 is the same client, over its limit even with the right password.
    const same = await post("/sign-in", attacker.at(99), { email: user.email, password });
    expect(same.error).toMatch(/^Too many failed attempts\. Try again in \d+ seconds\.$/);
    const other = await post("/sign-in", randomPrefix().at(1), { email: user.email, password });
    expect(other).toEqual({ redirect: "/" });
  });

  it("makes two addresses of one /64 share the sign-up IP counter, and leaves another /64 alone", async () => {
    process.env.SIGN_UP_LIMIT_PER_IP_PER_HOUR = "2";
    const post = await authServer();
    const signUp = (address: string) =>
      post("/sign-up", address, { name: "Ada", email: uniqueEmail("v6"), password: "long enough pw" });
    const home = randomPrefix();
    expect(await signUp(home.at(1))).toEqual({ redirect: "/" });
    expect(await signUp(home.at(2))).toEqual({ redirect: "/" });
    expect((await signUp(home.at(3))).error).toMatch(/^We couldn't create an account/);
    expect(await signUp(randomPrefix().at(1))).toEqual({ redirect: "/" });
  });

  it("counts chat starts, messages and polls from one /64 together, and another /64 apart", async () => {
    const { accountId } = await createAccount();
    const widget = await getOrCreateWidget(accountId);
    const { port } = await start({ routes: FAST_ROUTES, env: { TRUSTED_PROXY_HOPS: "1" } });
    type Call = { method?: string; path?: string; body?: unknown; token?: string };
    const chat = (address: string, call: Call = {}) =>
      send(port, {
        method: call.method ?? "POST",
        path: `/api/chat/${widget.id}/conversations${call.path ?? ""}`,
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": address,
          ...(call.token ? { "x-visitor-token": call.token } : {}),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
    const inTurn = async (addresses: string[], call: (address: string) => Promise<{ status: number }>) => {
      const statuses = [];
      for (const address of addresses) statuses.push((await call(address)).status);
      return statuses;
    };
    process.env.CHAT_CONVERSATIONS_PER_IP_PER_HOUR = "1";
    process.env.CHAT_MESSAGES_PER_IP_PER_MINUTE = "3";
    process.env.CHAT_POLLS_PER_IP_PER_MINUTE = "2";
    const flooder = randomPrefix();
    const started = await chat(flooder.at(1), { body: { text: "Hello" } });
    expect(started.status).toBe(201);
    type Started = { conversation: { id: string }; visitor_token: string };
    const { conversation, visitor_token: token } = JSON.parse(started.body) as Started;
    expect((await chat(flooder.at(2), { body: { text: "Hello again" } })).status).toBe(429);

    const messages = `/${conversation.id}/messages`;
    const message = (address: string) => chat(address, { path: messages, body: { text: "more" }, token });
    // The start took the /64's first write; two more fit, from other addresses of the /64.
    expect(await inTurn([flooder.at(3), flooder.at(4), flooder.at(5)], message)).toEqual([201, 201, 429]);
    expect((await message(randomPrefix().at(1))).status).toBe(201);

    const poll = (address: string) => chat(address, { method: "GET", path: `${messages}?after=0`, token });
    expect(await inTurn([flooder.at(6), flooder.at(7), flooder.at(8)], poll)).toEqual([200, 200, 429]);
    expect((await poll(randomPrefix().at(1))).status).toBe(200);
  });
});

describe("production server: registry", () => {
  it("is found under its versioned symbol once registered, listing the active fast routes", () => {
    const target = {};
    expect(readProductionServer(target)).toMatch(/not registered/);
    registerProductionServer(target);
    const registry = readProductionServer(target);
    if (typeof registry === "string") throw new Error(registry);
    // Every public API route of the one table, the chat endpoints, /metrics, then the webhook.
    const paths = [...PUBLIC_ROUTES, ...CHAT_ROUTES].map((route) => route.path);
    expect(registry.fastRoutes.map((label) => label.split(" ")[1])).toEqual([
      ...paths,
      "/metrics",
      "/api/v1/events/webhook/:sourceId",
    ]);
    expect(registry.fastRoutes).toContain("GET|HEAD /api/public/zapier/me");
    expect((target as Record<symbol, { version: number }>)[PRODUCTION_SERVER_KEY].version).toBe(1);
  });

  it("refuses a registry of another version", () => {
    const target = { [PRODUCTION_SERVER_KEY]: { version: 2, fastRoutes: ["x"] } };
    expect(readProductionServer(target)).toMatch(/version 2/);
  });
});
