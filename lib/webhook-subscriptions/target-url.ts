import net from "node:net";
import { fail, type Failure } from "@/lib/platform/result";
import { isAllowedAddress, systemResolver, type Resolver } from "./addresses";

/*
 * Where a subscription may send notifications (docs/outbound-webhooks.md, "SSRF rules"): an https URL
 * of at most 2,048 characters, without credentials, on port 443 or 1024–65535 (no SSH, SMTP or other
 * well-known service), whose host is not, and does not resolve to, a loopback, private, link-local,
 * multicast, reserved or documentation address. A name that does not resolve gets the very answer of
 * one that resolves privately, so that subscribing cannot tell which internal names exist. The WHATWG URL parser
 * turns every IPv4 spelling ("2130706433", "0x7f.1", "017700000001") into dotted decimal first, so
 * they are judged as the address they are. With OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 loopback hosts
 * (127.0.0.0/8, ::1, localhost) are allowed, also over http and on any port; nothing else changes.
 * The same check runs again at connect time (safeLookup), against the address actually used.
 */

export const MAX_TARGET_URL_LENGTH = 2_048;

export type TargetUrlReason =
  | "invalid_url"
  | "url_too_long"
  | "scheme_not_allowed"
  | "credentials_not_allowed"
  | "port_not_allowed"
  | "private_address";

export type ParsedTarget = {
  /** The normalised URL that is stored and later requested (no fragment). */
  url: string;
  /** An IP literal (without brackets), or a host name still to resolve. */
  host: { kind: "ip"; address: string } | { kind: "name"; name: string } | { kind: "localhost" };
};

export type TargetCheck<T> = { ok: true; value: T } | Failure<TargetUrlReason>;

const PRIVATE_MESSAGE =
  "The URL's host is a loopback, private, link-local or otherwise non-public address. Use a public https endpoint.";

/** Ports a notification may go to: https's own, and the unprivileged ones (a receiver on e.g. 8443). */
export function isAllowedPort(port: number): boolean {
  return port === 443 || (port >= 1024 && port <= 65535);
}

/** The URL's port, or the scheme's default when it names none (the URL parser drops a default port). */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
}

const portProblem = (port: number): Failure<TargetUrlReason> =>
  fail<TargetUrlReason>(
    "port_not_allowed",
    `Port ${port} is not allowed. Use port 443 (the https default: leave the port out) or a port from 1024 to 65535.`,
  );

const isLocalhostName = (name: string) => name === "localhost" || name.endsWith(".localhost");

/** Whether a URL's host (an IP literal, bracketed or not, or a name) is loopback by its spelling alone. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) {
    return !isAllowedAddress(host, { allowLoopback: false }) && isAllowedAddress(host, { allowLoopback: true });
  }
  return isLocalhostName(host.replace(/\.$/, "").toLowerCase());
}

/** The checks that need no network: syntax, length, scheme, credentials and an IP-literal host. */
export function parseTargetUrl(raw: string, options: { allowLoopback: boolean }): TargetCheck<ParsedTarget> {
  const text = raw.trim();
  if (text.length > MAX_TARGET_URL_LENGTH)
    return fail("url_too_long", `Use a URL of at most ${MAX_TARGET_URL_LENGTH.toLocaleString("en-US")} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail("invalid_url", "Must be an absolute URL, e.g. https://example.com/hooks.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return fail("scheme_not_allowed", `The ${url.protocol.replace(/:$/, "")} scheme is not allowed; use https.`);
  }
  if (url.username || url.password) {
    return fail(
      "credentials_not_allowed",
      "Remove the user name and password from the URL; authenticate notifications by their signature.",
    );
  }
  url.hash = "";
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  // A trailing dot names the same host ("localhost." is localhost).
  const name = hostname.replace(/\.$/, "").toLowerCase();
  let host: ParsedTarget["host"];
  let loopback = false;
  if (net.isIP(hostname)) {
    if (!isAllowedAddress(hostname, options)) return fail("private_address", PRIVATE_MESSAGE);
    loopback = !isAllowedAddress(hostname, { allowLoopback: false });
    host = { kind: "ip", address: hostname };
  } else if (isLocalhostName(name)) {
    if (!options.allowLoopback) return fail("private_address", PRIVATE_MESSAGE);
    loopback = true;
    host = { kind: "localhost" };
  } else {
    if (!name) return fail("invalid_url", "The URL has no host.");
    host = { kind: "name", name: hostname };
  }
  if (url.protocol === "http:" && !loopback)
    return fail("scheme_not_allowed", "Use an https URL; plain http is not allowed.");
  // Loopback targets exist only with OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 (development and tests), on any port.
  if (!loopback && !isAllowedPort(portOf(url))) return portProblem(portOf(url));
  if (url.href.length > MAX_TARGET_URL_LENGTH)
    return fail("url_too_long", `Use a URL of at most ${MAX_TARGET_URL_LENGTH.toLocaleString("en-US")} characters.`);
  return { ok: true, value: { url: url.href, host } };
}

/**
 * A subscription's or a calendar feed's URL as records and the dashboard name it (audit entries outlive it
 * and every member reads them): origin and path only, since a query often carries the receiver's token.
 */
export function originAndPath(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

export type TargetUrlOptions = { allowLoopback: boolean; resolve?: Resolver; timeoutMs?: number };

let configuredResolver: Resolver = systemResolver;

/**
 * Replaces the resolver used when no `resolve` option is passed; returns a function that restores the
 * previous one. Tests use it so that no lookup leaves the machine.
 */
export function setTargetResolver(resolver: Resolver): () => void {
  const previous = configuredResolver;
  configuredResolver = resolver;
  return () => {
    configuredResolver = previous;
  };
}

/** parseTargetUrl, then every address the host name resolves to must be allowed. */
export async function validateTargetUrl(raw: string, options: TargetUrlOptions): Promise<TargetCheck<string>> {
  const parsed = parseTargetUrl(raw, options);
  if (!parsed.ok) return parsed;
  const { host, url } = parsed.value;
  if (host.kind !== "name") return { ok: true, value: url };
  const resolve = options.resolve ?? configuredResolver;
  let answers: { address: string }[];
  try {
    answers = await withTimeout(resolve(host.name), options.timeoutMs ?? 5_000);
  } catch {
    answers = [];
  }
  // No answer and a private answer read alike, so this cannot be used to learn which internal names exist.
  if (answers.length === 0 || answers.some((answer) => !isAllowedAddress(answer.address, options))) {
    return fail(
      "private_address",
      `The host ${host.name} has no public address: it does not resolve, or it resolves to a non-public address. ` +
        "Use a public https endpoint.",
    );
  }
  return { ok: true, value: url };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
