import "server-only";
import net from "node:net";
import { STATUS_CODES } from "node:http";
import { Agent, request } from "undici";
import { describeError } from "@/lib/outbound/post";
import { allowLoopbackTargets, assertPublicAddress, safeLookup } from "@/lib/webhook-subscriptions/addresses";
import { isAllowedPort, isLoopbackHost, portOf, validateTargetUrl } from "@/lib/webhook-subscriptions/target-url";
import { FEED_LIMITS } from "./model";

/*
 * One fetch of a feed (docs/calendar-feeds.md, "Follow a calendar"), guarded exactly like outbound
 * delivery: every new connection goes through the lookup that refuses private addresses (checked against
 * the address really connected to), an IP literal is judged before connecting, and so is the port.
 * Redirects are followed by hand, at most 3, each target checked by the subscription URL rules (public
 * https only). One deadline covers the whole fetch, redirects and body included; the body is read as a
 * stream and the fetch ends as soon as it passes the cap. The request is conditional when the feed
 * answered with an ETag or Last-Modified before.
 */

export type FetchValidators = { etag: string | null; lastModified: string | null };
export type FetchOptions = { timeoutMs?: number; maxBytes?: number };

export type FetchOutcome =
  | { kind: "not_modified"; status: 304 }
  | {
      kind: "body";
      status: number;
      body: Buffer;
      contentType: string;
      etag: string | null;
      lastModified: string | null;
    }
  | { kind: "failed"; status: number | null; error: string };

const dispatcher = new Agent({
  connections: 16,
  connect: { lookup: safeLookup, timeout: FEED_LIMITS.timeoutMs },
});

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

class FeedTooLarge extends Error {}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** Before connecting: an IP literal is never looked up, and the port rule of notification targets applies. */
function preflight(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = isLoopbackHost(url.hostname) && allowLoopbackTargets();
  if (!isAllowedPort(portOf(url)) && !loopback) return `Refused: port ${portOf(url)} is not allowed for feeds.`;
  if (net.isIP(host)) {
    try {
      assertPublicAddress(host);
    } catch {
      return "Refused: the feed's address is a private or local network address.";
    }
  }
  return null;
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export async function fetchFeed(
  url: string,
  validators: FetchValidators,
  options: FetchOptions = {},
): Promise<FetchOutcome> {
  const timeoutMs = options.timeoutMs ?? FEED_LIMITS.timeoutMs;
  const maxBytes = options.maxBytes ?? FEED_LIMITS.maxBytes;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = new URL(url);
  let status: number | null = null;
  try {
    for (let redirects = 0; ; redirects++) {
      const refused = preflight(current);
      if (refused) return { kind: "failed", status, error: refused };
      const headers: Record<string, string> = {
        accept: "text/calendar, */*;q=0.5",
        "user-agent": "IntegrationAccess-CalendarFeeds/1.0",
      };
      if (validators.etag) headers["if-none-match"] = validators.etag;
      if (validators.lastModified) headers["if-modified-since"] = validators.lastModified;
      const response = await request(current, {
        dispatcher,
        method: "GET",
        headers,
        signal,
        headersTimeout: timeoutMs + 1_000,
        bodyTimeout: timeoutMs + 1_000,
      });
      status = response.statusCode;
      if (REDIRECTS.has(status)) {
        await response.body.dump().catch(() => {});
        const location = headerOf(response.headers, "location");
        if (!location) return { kind: "failed", status, error: `The server answered ${status} without a Location.` };
        if (redirects >= FEED_LIMITS.maxRedirects)
          return { kind: "failed", status, error: `The feed redirected more than ${FEED_LIMITS.maxRedirects} times.` };
        const next = new URL(location, current);
        const checked = await validateTargetUrl(next.href, { allowLoopback: allowLoopbackTargets() });
        if (!checked.ok) {
          const where = `${next.protocol}//${next.host}`;
          return {
            kind: "failed",
            status,
            error: `Refused: the feed redirected to ${where}, which is not a public https address.`,
          };
        }
        current = new URL(checked.value);
        continue;
      }
      if (status === 304) {
        await response.body.dump().catch(() => {});
        return { kind: "not_modified", status: 304 };
      }
      if (status < 200 || status > 299) {
        await response.body.dump().catch(() => {});
        const reason = STATUS_CODES[status];
        return { kind: "failed", status, error: `The server answered ${status}${reason ? ` (${reason})` : ""}.` };
      }
      const declared = Number(headerOf(response.headers, "content-length"));
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.body.destroy();
        return {
          kind: "failed",
          status,
          error: `The feed is over ${mib(maxBytes)} (the server announced ${mib(declared)}).`,
        };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) throw new FeedTooLarge();
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        response.body.destroy();
        if (error instanceof FeedTooLarge)
          return { kind: "failed", status, error: `The feed is over ${mib(maxBytes)}.` };
        throw error;
      }
      return {
        kind: "body",
        status,
        body: Buffer.concat(chunks, size),
        contentType: headerOf(response.headers, "content-type") ?? "",
        etag: headerOf(response.headers, "etag"),
        lastModified: headerOf(response.headers, "last-modified"),
      };
    }
  } catch (error) {
    if (signal.aborted) {
      const seconds = Number((timeoutMs / 1000).toFixed(1));
      return {
        kind: "failed",
        status,
        error: `The server did not send the feed within ${seconds} seconds (timed out).`,
      };
    }
    if ((error as { code?: string }).code === "ESSRF")
      return {
        kind: "failed",
        status,
        error: "Refused: the feed's host resolves to a private or local network address.",
      };
    return { kind: "failed", status, error: describeError(error).replace(/receiver/g, "server") };
  }
}
