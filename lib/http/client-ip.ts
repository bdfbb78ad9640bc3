import { isIP } from "node:net";

/*
 * Which address a request came from, for throttling. `X-Forwarded-For` is written by the client unless a
 * proxy we run rewrote it, so it is trusted only as far as the operator says (TRUSTED_PROXY_HOPS, default
 * 0): with N trusted proxies, the client is the Nth entry from the right, counting the socket's peer as
 * the first hop. The production server computes this once per request and passes it to the app in
 * CLIENT_IP_HEADER, after deleting any value of that header the client sent.
 */

export const CLIENT_IP_HEADER = "x-client-ip";

export function trustedProxyHops(env: Env = process.env): number {
  const hops = Number(env.TRUSTED_PROXY_HOPS ?? 0);
  return Number.isInteger(hops) && hops >= 0 && hops <= 10 ? hops : 0;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is reported as the IPv4 address, so one client has one key. */
function normalise(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, "$1");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1] : trimmed.toLowerCase();
}

export function resolveClientIp(input: {
  remoteAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
  trustedHops: number;
}): string {
  const peer = normalise(input.remoteAddress ?? "") || "unknown";
  if (input.trustedHops === 0) return peer;
  const header = Array.isArray(input.forwardedFor) ? input.forwardedFor.join(",") : (input.forwardedFor ?? "");
  const chain = header.split(",").map(normalise).filter(Boolean);
  // chain = [client?, proxy1, …, proxyN-1]; the peer is proxy N. Walk back trustedHops - 1 entries.
  const candidate = chain[chain.length - input.trustedHops];
  return candidate && isIP(candidate) ? candidate : peer;
}

/** Environment variables as the server reads them (tests pass plain objects). */
export type Env = Readonly<Record<string, string | undefined>>;
