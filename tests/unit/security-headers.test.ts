import type { NextConfig } from "next";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match";
import { SECURITY_HEADERS, securityHeadersFor } from "@/lib/platform/http/security-headers";
import { config, proxy } from "@/proxy";

const page = (path: string, cookie?: string) =>
  new NextRequest(`http://localhost:3000${path}`, { headers: cookie ? { cookie } : {} });
const SESSION = "next-auth.session-token=abc";
const saved = { NEXTAUTH_URL: process.env.NEXTAUTH_URL, APP_BASE_URL: process.env.APP_BASE_URL };
afterEach(() => Object.assign(process.env, saved));

function nonceOf(csp: string | null): string {
  const match = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "");
  if (!match) throw new Error(`no nonce in ${csp}`);
  return match[1];
}

describe("proxy: Content-Security-Policy", () => {
  it("sends a strict, nonce-based policy with every page and passes it to Next.js in the request", async () => {
    const response = await proxy(page("/sign-in"));
    const csp = response.headers.get("Content-Security-Policy");
    expect(csp).toContain(`script-src 'self' 'nonce-${nonceOf(csp)}' 'strict-dynamic'`);
    for (const directive of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      "default-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("unsafe-eval");
    // NextResponse.next({ request: { headers } }) forwards request headers under this prefix.
    expect(response.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
  });

  it("uses a fresh nonce for every response", async () => {
    const first = nonceOf((await proxy(page("/sign-in"))).headers.get("Content-Security-Policy"));
    const second = nonceOf((await proxy(page("/sign-in"))).headers.get("Content-Security-Policy"));
    expect(first).not.toBe(second);
    expect(Buffer.from(first, "base64")).toHaveLength(16);
  });

  it("covers dashboard pages with a session too, and passes their path along", async () => {
    const response = await proxy(page("/knowledge/events?q=x", SESSION));
    expect(response.headers.get("Content-Security-Policy")).toContain("'strict-dynamic'");
    expect(response.headers.get("x-middleware-request-x-pathname")).toBe("/knowledge/events?q=x");
  });

  it("sends HSTS only when the public URL is https", async () => {
    process.env.NEXTAUTH_URL = "http://localhost:3000";
    expect((await proxy(page("/sign-in"))).headers.get("Strict-Transport-Security")).toBeNull();
    process.env.NEXTAUTH_URL = "https://app.example.com";
    expect((await proxy(page("/sign-in"))).headers.get("Strict-Transport-Security")).toBe(
      "max-age=63072000; includeSubDomains",
    );
  });

  it("runs for pages, not for the API or static files", async () => {
    const pattern = new RegExp(`^${config.matcher[0].replace("/((?!", "/(?!").replace(").*)", ").*")}$`);
    for (const path of ["/", "/sign-in", "/sign-up", "/knowledge/events", "/settings/api-keys", "/nope"])
      expect(pattern.test(path), path).toBe(true);
    for (const path of ["/api/health", "/api/v1/events/webhook/x", "/_next/static/chunk.js", "/favicon.ico"])
      expect(pattern.test(path), path).toBe(false);
  });
});

describe("proxy: session gate", () => {
  it("sends dashboard pages without a session cookie to sign-in, coming back afterwards", async () => {
    for (const path of ["/", "/knowledge/events", "/settings/api-keys"]) {
      const response = await proxy(page(path));
      expect(response.status).toBe(307);
      expect(new URL(response.headers.get("location")!).searchParams.get("callbackUrl")).toBe(path);
    }
  });

  it("lets sign-in, sign-up and unknown pages through without a session", async () => {
    for (const path of ["/sign-in", "/sign-up", "/knowledgebase"]) {
      const response = await proxy(page(path));
      expect(response.headers.get("location"), path).toBeNull();
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
  });
});

describe("security headers", () => {
  it("are the same in next.config.mjs (next dev) as in the production server", async () => {
    // @ts-expect-error -- next.config.mjs is plain JavaScript without type declarations.
    const { default: nextConfig } = (await import("@/next.config.mjs")) as { default: NextConfig };
    const rules = await nextConfig.headers!();
    // What Next.js sends for a path: the headers of every rule whose source matches it.
    const configuredFor = (path: string) =>
      rules
        .filter((rule) => getPathMatch(rule.source)(path) !== false)
        .flatMap((rule) => rule.headers.map(({ key, value }) => [key, value]));
    for (const path of [
      "/",
      "/sign-in",
      "/settings/chat-widget",
      "/chat",
      "/chatter",
      "/widget.js",
      "/api/chat/wid_x/conversations",
      "/chat/wid_abc",
    ]) {
      expect(configuredFor(path).sort(), path).toEqual(
        securityHeadersFor(path)
          .map(([name, value]) => [name, value])
          .sort(),
      );
    }
    expect(securityHeadersFor("/sign-in")).toEqual(SECURITY_HEADERS);
  });

  it("leave X-Frame-Options off the widget's chat page only", () => {
    expect(securityHeadersFor("/chat/wid_abc").map(([name]) => name)).not.toContain("X-Frame-Options");
    for (const path of ["/", "/sign-in", "/chatroom", "/api/chat/wid_abc/conversations"])
      expect(securityHeadersFor(path)).toContainEqual(["X-Frame-Options", "DENY"]);
  });
});
