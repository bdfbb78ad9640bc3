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

/*
 * The key per-IP limits count against. One IPv6 client is usually handed a whole /64 (a home line, a
 * phone, a virtual server), so counting full IPv6 addresses gives it 2^64 fresh counters: every per-IP
 * limit keys on the /64 instead, in one canonical spelling ("2001:db8:1:2::/64"), however the address
 * was written. IPv4 addresses, IPv4-mapped IPv6 addresses (as their IPv4) and anything that is not an
 * address (the development server's "local") are keys as they are.
 */
export function rateLimitKeyForIp(ip: string): string {
  const address = normalise(ip).replace(/%.*$/, "");
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  const mappedIpv4 = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mappedIpv4) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  // The WHATWG URL serialiser writes RFC 5952's form: lower case, no leading zeros, longest zero run as "::".
  const prefix = new URL(
    `http://[${groups
      .slice(0, 4)
      .map((group) => group.toString(16))
      .join(":")}::]`,
  ).hostname;
  return `${prefix.slice(1, -1)}/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ("::" expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const pair = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${pair(dotted[1]!, dotted[2]!)}:${pair(dotted[3]!, dotted[4]!)}`
    : address;
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Environment variables as the server reads them (tests pass plain objects). */
export type Env = Readonly<Record<string, string | undefined>>;
