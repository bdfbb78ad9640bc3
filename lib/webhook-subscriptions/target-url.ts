import net from "node:net";
import { isAllowedAddress, systemResolver, type Resolver } from "./addresses";

/*
 * Where a subscription may send notifications (docs/outbound-webhooks.md, "SSRF rules"): an https URL
 * of at most 2,048 characters, without credentials, whose host is not, and does not resolve to, a
 * loopback, private, link-local, multicast, reserved or documentation address. The WHATWG URL parser
 * turns every IPv4 spelling ("2130706433", "0x7f.1", "017700000001") into dotted decimal first, so
 * they are judged as the address they are. With OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 loopback hosts
 * (127.0.0.0/8, ::1, localhost) are allowed, also over http; nothing else changes.
 * The same check runs again at connect time (safeLookup), against the address actually used.
 */

export const MAX_TARGET_URL_LENGTH = 2_048;

export type TargetUrlReason =
  | "invalid_url"
  | "url_too_long"
  | "scheme_not_allowed"
  | "credentials_not_allowed"
  | "private_address"
  | "unresolvable_host";

export type TargetUrlProblem = { reason: TargetUrlReason; message: string };

export type ParsedTarget = {
  /** The normalised URL that is stored and later requested (no fragment). */
  url: string;
  /** An IP literal (without brackets), or a host name still to resolve. */
  host: { kind: "ip"; address: string } | { kind: "name"; name: string } | { kind: "localhost" };
};

export type TargetCheck<T> = { ok: true; value: T } | { ok: false; problem: TargetUrlProblem };

const problem = (reason: TargetUrlReason, message: string): { ok: false; problem: TargetUrlProblem } => ({ ok: false, problem: { reason, message } });

const PRIVATE_MESSAGE = "The URL's host is a loopback, private, link-local or otherwise non-public address. Use a public https endpoint.";

const isLocalhostName = (name: string) => name === "localhost" || name.endsWith(".localhost");

/** The checks that need no network: syntax, length, scheme, credentials and an IP-literal host. */
export function parseTargetUrl(raw: string, options: { allowLoopback: boolean }): TargetCheck<ParsedTarget> {
  const text = raw.trim();
  if (text.length > MAX_TARGET_URL_LENGTH) return problem("url_too_long", `Use a URL of at most ${MAX_TARGET_URL_LENGTH.toLocaleString("en-US")} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return problem("invalid_url", "Must be an absolute URL, e.g. https://example.com/hooks.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return problem("scheme_not_allowed", `The ${url.protocol.replace(/:$/, "")} scheme is not allowed; use https.`);
  }
  if (url.username || url.password) {
    return problem("credentials_not_allowed", "Remove the user name and password from the URL; authenticate notifications by their signature.");
  }
  url.hash = "";
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  // A trailing dot names the same host ("localhost." is localhost).
  const name = hostname.replace(/\.$/, "").toLowerCase();
  let host: ParsedTarget["host"];
  let loopback = false;
  if (net.isIP(hostname)) {
    if (!isAllowedAddress(hostname, options)) return problem("private_address", PRIVATE_MESSAGE);
    loopback = !isAllowedAddress(hostname, { allowLoopback: false });
    host = { kind: "ip", address: hostname };
  } else if (isLocalhostName(name)) {
    if (!options.allowLoopback) return problem("private_address", PRIVATE_MESSAGE);
    loopback = true;
    host = { kind: "localhost" };
  } else {
    if (!name) return problem("invalid_url", "The URL has no host.");
    host = { kind: "name", name: hostname };
  }
  if (url.protocol === "http:" && !loopback) return problem("scheme_not_allowed", "Use an https URL; plain http is not allowed.");
  if (url.href.length > MAX_TARGET_URL_LENGTH) return problem("url_too_long", `Use a URL of at most ${MAX_TARGET_URL_LENGTH.toLocaleString("en-US")} characters.`);
  return { ok: true, value: { url: url.href, host } };
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
  if (answers.length === 0) return problem("unresolvable_host", `The host ${host.name} could not be resolved. Check the spelling, or try again once its DNS is set up.`);
  if (answers.some((answer) => !isAllowedAddress(answer.address, options))) {
    return problem("private_address", `The host ${host.name} resolves to a non-public address. Use a public https endpoint.`);
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
