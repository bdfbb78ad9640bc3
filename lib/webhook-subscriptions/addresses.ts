import dns from "node:dns";
import net from "node:net";

/*
 * Which IP addresses an outbound notification may connect to (docs/outbound-webhooks.md, "SSRF rules").
 * Only globally reachable unicast: IPv4 outside the special-purpose ranges, IPv6 inside 2000::/3 minus
 * its documentation and protocol blocks. Addresses that embed an IPv4 address (IPv4-mapped, NAT64,
 * 6to4) are judged by that IPv4 address, so "::ffff:10.0.0.1" is as private as "10.0.0.1".
 * OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 opens 127.0.0.0/8 and ::1 for local development and tests, nothing else.
 */

const BLOCKED_V4: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network", incl. the unspecified address
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast
];

// Inside global unicast (2000::/3), the blocks that are not globally reachable targets.
const BLOCKED_V6_IN_GLOBAL: readonly [string, number][] = [
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
];

function blockList(entries: readonly [string, number][], type: "ipv4" | "ipv6"): net.BlockList {
  const list = new net.BlockList();
  for (const [prefix, length] of entries) list.addSubnet(prefix, length, type);
  return list;
}

const blockedV4 = blockList(BLOCKED_V4, "ipv4");
const blockedV6InGlobal = blockList(BLOCKED_V6_IN_GLOBAL, "ipv6");
const globalUnicastV6 = blockList([["2000::", 3]], "ipv6");
const loopbackV4 = blockList([["127.0.0.0", 8]], "ipv4");

export type AddressOptions = { allowLoopback: boolean };

export function allowLoopbackTargets(env: Record<string, string | undefined> = process.env): boolean {
  return env.OUTBOUND_ALLOW_LOOPBACK_TARGETS === "1";
}

/*
 * Loopback targets are for a developer's machine and the tests. An app whose public URL is https is a
 * real deployment: there the setting would let any API key aim notifications at the server's own
 * services, so the production server and the standalone worker refuse to start with it.
 */
export function loopbackTargetsProblem(env: Record<string, string | undefined> = process.env): string | null {
  if (!allowLoopbackTargets(env)) return null;
  const httpsUrl = [env.NEXTAUTH_URL, env.APP_BASE_URL].find((url) => url?.trim().toLowerCase().startsWith("https://"));
  if (!httpsUrl) return null;
  return (
    `OUTBOUND_ALLOW_LOOPBACK_TARGETS=1 is set, but the public URL (${httpsUrl.trim()}) is https. ` +
    "Loopback notification targets are for local development and tests only: remove OUTBOUND_ALLOW_LOOPBACK_TARGETS."
  );
}

/** Whether `ip` (an IP literal; anything else is refused) may be connected to. */
export function isAllowedAddress(ip: string, options: AddressOptions = { allowLoopback: false }): boolean {
  const address = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (net.isIPv4(address)) return isAllowedV4(address, options.allowLoopback);
  if (!net.isIPv6(address)) return false;
  const bytes = ipv6Bytes(address);
  if (isZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return isAllowedV4(dotted(bytes, 12), options.allowLoopback); // IPv4-mapped ::ffff:a.b.c.d
  }
  if (isZero(bytes, 0, 15) && bytes[15] === 1) return options.allowLoopback; // ::1
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && isZero(bytes, 4, 12)) {
    return isAllowedV4(dotted(bytes, 12), false); // NAT64 64:ff9b::a.b.c.d reaches a.b.c.d
  }
  if (startsWith(bytes, [0x20, 0x02])) return isAllowedV4(dotted(bytes, 2), false); // 6to4 2002:AABB:CCDD::
  const canonical = formatV6(bytes);
  return globalUnicastV6.check(canonical, "ipv6") && !blockedV6InGlobal.check(canonical, "ipv6");
}

function isAllowedV4(address: string, allowLoopback: boolean): boolean {
  if (allowLoopback && loopbackV4.check(address, "ipv4")) return true;
  return !blockedV4.check(address, "ipv4");
}

export class RefusedAddressError extends Error {
  readonly code = "ESSRF";
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`Refusing to connect to ${address}: not a public address`);
    this.name = "RefusedAddressError";
  }
}

/** Throws RefusedAddressError (code "ESSRF") unless `address` may be connected to. */
export function assertPublicAddress(
  address: string,
  options: AddressOptions = { allowLoopback: allowLoopbackTargets() },
  hostname = address,
): void {
  if (!isAllowedAddress(address, options)) throw new RefusedAddressError(hostname, address);
}

export type LookupAddress = { address: string; family: number };
/** Resolves every address of a host name; the default is the system resolver (getaddrinfo). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupOptions = { all?: boolean; family?: number | string } | number | undefined;

/*
 * An http.Agent / net.connect `lookup`: resolves like dns.lookup, then refuses the connection (error code
 * "ESSRF") if ANY answer is not allowed, so a host cannot hide a private address among public ones. Node
 * calls it with `all: true` when it races address families, so both answer shapes are produced.
 * IP literals never reach a lookup function: check those with assertPublicAddress before connecting.
 */
export function createSafeLookup(options: { resolve?: Resolver; allowLoopback?: () => boolean } = {}) {
  const resolve = options.resolve ?? systemResolver;
  const allowLoopback = options.allowLoopback ?? (() => allowLoopbackTargets());
  return function safeLookup(hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void {
    const wanted = typeof lookupOptions === "object" ? lookupOptions : { family: lookupOptions };
    const family = wanted.family === "IPv4" ? 4 : wanted.family === "IPv6" ? 6 : Number(wanted.family ?? 0);
    resolve(hostname)
      .then((answers) => {
        const usable = family === 4 || family === 6 ? answers.filter((answer) => answer.family === family) : answers;
        if (usable.length === 0)
          throw Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND", hostname });
        const settings = { allowLoopback: allowLoopback() };
        for (const answer of answers) assertPublicAddress(answer.address, settings, hostname);
        if (wanted.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, wanted.all ? [] : "", undefined));
  };
}

export const safeLookup = createSafeLookup();

function ipv6Bytes(address: string): number[] {
  // Zone id dropped; a trailing dotted quad ("::ffff:1.2.3.4") rewritten as its two hex words.
  const text = address
    .split("%")[0]
    .replace(
      /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
      (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
    );
  const words = (part: string) => (part ? part.split(":").map((word) => parseInt(word, 16)) : []);
  const [head, tail] = text.includes("::") ? text.split("::") : [text, ""];
  const left = words(head);
  const right = words(tail);
  const middle = new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...middle, ...right].flatMap((word) => [word >> 8, word & 0xff]);
}

const isZero = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
const dotted = (bytes: number[], from: number) => bytes.slice(from, from + 4).join(".");

function formatV6(bytes: number[]): string {
  const words: string[] = [];
  for (let index = 0; index < 16; index += 2) words.push(((bytes[index] << 8) | bytes[index + 1]).toString(16));
  return words.join(":");
}
