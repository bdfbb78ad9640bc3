import net from "node:net";
import { describe, expect, it } from "vitest";
import {
  allowLoopbackTargets,
  assertPublicAddress,
  createSafeLookup,
  isAllowedAddress,
  type LookupAddress,
} from "@/lib/webhook-subscriptions/addresses";

// [address, allowed without the loopback flag, allowed with it]
const TABLE: [string, boolean, boolean][] = [
  // public
  ["8.8.8.8", true, true],
  ["1.1.1.1", true, true],
  ["93.184.215.14", true, true],
  ["2606:4700:4700::1111", true, true],
  ["2001:4860:4860::8888", true, true],
  ["::ffff:8.8.8.8", true, true],
  ["64:ff9b::8.8.8.8", true, true],
  ["2002:808:808::1", true, true],
  // loopback: only with the flag
  ["127.0.0.1", false, true],
  ["127.255.255.254", false, true],
  ["::1", false, true],
  ["[::1]", false, true],
  ["::ffff:127.0.0.1", false, true],
  ["0:0:0:0:0:ffff:7f00:1", false, true],
  // never, flag or not
  ["0.0.0.0", false, false],
  ["0.1.2.3", false, false],
  ["10.0.0.1", false, false],
  ["10.255.255.255", false, false],
  ["100.64.0.1", false, false],
  ["100.127.255.255", false, false],
  ["169.254.169.254", false, false],
  ["172.16.0.1", false, false],
  ["172.31.255.255", false, false],
  ["192.0.0.8", false, false],
  ["192.0.2.10", false, false],
  ["192.88.99.1", false, false],
  ["192.168.1.1", false, false],
  ["198.18.0.1", false, false],
  ["198.19.255.255", false, false],
  ["198.51.100.7", false, false],
  ["203.0.113.9", false, false],
  ["224.0.0.1", false, false],
  ["239.255.255.250", false, false],
  ["240.0.0.1", false, false],
  ["255.255.255.255", false, false],
  ["::", false, false],
  ["::ffff:10.0.0.1", false, false],
  ["::ffff:169.254.169.254", false, false],
  ["::ffff:a9fe:a9fe", false, false],
  ["::127.0.0.1", false, false], // IPv4-compatible (deprecated)
  ["::10.0.0.1", false, false],
  ["64:ff9b::127.0.0.1", false, false], // NAT64 to loopback is not loopback on this machine
  ["64:ff9b::a00:1", false, false],
  ["64:ff9b:1::8.8.8.8", false, false], // local-use NAT64
  ["2002:7f00:1::", false, false], // 6to4 of 127.0.0.1
  ["2002:a9fe:a9fe::1", false, false], // 6to4 of 169.254.169.254
  ["2001::1", false, false], // Teredo
  ["2001:2::1", false, false], // benchmarking
  ["2001:db8::1", false, false], // documentation
  ["3fff::1", false, false], // documentation
  ["fc00::1", false, false], // unique local
  ["fd12:3456:789a::1", false, false],
  ["fe80::1", false, false], // link-local
  ["fe80::1%eth0", false, false],
  ["fec0::1", false, false], // site-local
  ["ff02::1", false, false], // multicast
  ["100::1", false, false], // discard-only
  ["5f00::1", false, false],
  // not IP literals
  ["localhost", false, false],
  ["example.com", false, false],
  ["2130706433", false, false],
  ["0x7f.1", false, false],
  ["1.2.3", false, false],
  ["", false, false],
];

describe("isAllowedAddress", () => {
  it.each(TABLE)("%s: allowed=%s, with loopback targets allowed=%s", (address, allowed, allowedWithLoopback) => {
    expect(isAllowedAddress(address)).toBe(allowed);
    expect(isAllowedAddress(address, { allowLoopback: false })).toBe(allowed);
    expect(isAllowedAddress(address, { allowLoopback: true })).toBe(allowedWithLoopback);
  });

  it("refuses every address of the private IPv4 ranges' edges and allows their neighbours", () => {
    expect(isAllowedAddress("9.255.255.255")).toBe(true);
    expect(isAllowedAddress("11.0.0.0")).toBe(true);
    expect(isAllowedAddress("172.15.255.255")).toBe(true);
    expect(isAllowedAddress("172.32.0.0")).toBe(true);
    expect(isAllowedAddress("100.63.255.255")).toBe(true);
    expect(isAllowedAddress("100.128.0.0")).toBe(true);
    expect(isAllowedAddress("223.255.255.255")).toBe(true);
  });
});

describe("allowLoopbackTargets", () => {
  it("is on only for OUTBOUND_ALLOW_LOOPBACK_TARGETS=1", () => {
    expect(allowLoopbackTargets({ OUTBOUND_ALLOW_LOOPBACK_TARGETS: "1" })).toBe(true);
    expect(allowLoopbackTargets({ OUTBOUND_ALLOW_LOOPBACK_TARGETS: "true" })).toBe(false);
    expect(allowLoopbackTargets({})).toBe(false);
  });
});

describe("assertPublicAddress", () => {
  it("throws an error with code ESSRF for a refused address", () => {
    expect(() => assertPublicAddress("169.254.169.254", { allowLoopback: true })).toThrow(
      expect.objectContaining({ code: "ESSRF" }),
    );
    expect(() => assertPublicAddress("8.8.8.8", { allowLoopback: false })).not.toThrow();
  });
});

/** Calls a lookup function the way net.connect does and returns what its callback got. */
function callLookup(
  lookup: ReturnType<typeof createSafeLookup>,
  hostname: string,
  options: { all?: boolean; family?: number },
) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
    (resolve) => {
      lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
    },
  );
}

const resolverOf = (answers: Record<string, LookupAddress[]>) => async (hostname: string) => {
  const found = answers[hostname];
  if (!found) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return found;
};

describe("safeLookup (connect-time check)", () => {
  const resolve = resolverOf({
    "public.test": [
      { address: "93.184.215.14", family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    ],
    "metadata.test": [{ address: "169.254.169.254", family: 4 }],
    "mixed.test": [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ],
    "loop.test": [{ address: "127.0.0.1", family: 4 }],
  });
  const strict = createSafeLookup({ resolve, allowLoopback: () => false });
  const loose = createSafeLookup({ resolve, allowLoopback: () => true });

  it("answers the first public address, or all of them when asked for all", async () => {
    expect(await callLookup(strict, "public.test", {})).toEqual({ error: null, address: "93.184.215.14", family: 4 });
    const all = await callLookup(strict, "public.test", { all: true });
    expect(all.error).toBeNull();
    expect(all.address).toHaveLength(2);
    expect(await callLookup(strict, "public.test", { family: 6 })).toMatchObject({
      address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
      family: 6,
    });
  });

  it("refuses a host that resolves to a private address with code ESSRF", async () => {
    const { error } = await callLookup(strict, "metadata.test", {});
    expect(error).toMatchObject({ code: "ESSRF" });
  });

  it("refuses a host with one private address among public ones, even when asked for another family", async () => {
    expect((await callLookup(strict, "mixed.test", { all: true })).error).toMatchObject({ code: "ESSRF" });
  });

  it("allows a loopback answer only when loopback targets are allowed", async () => {
    expect((await callLookup(strict, "loop.test", {})).error).toMatchObject({ code: "ESSRF" });
    expect(await callLookup(loose, "loop.test", {})).toEqual({ error: null, address: "127.0.0.1", family: 4 });
    expect((await callLookup(loose, "metadata.test", {})).error).toMatchObject({ code: "ESSRF" });
  });

  it("passes resolver errors on", async () => {
    expect((await callLookup(strict, "nowhere.test", {})).error).toMatchObject({ code: "ENOTFOUND" });
  });

  it("stops a real connection attempt before any packet leaves (the lookup refuses first)", async () => {
    const socket = net.connect({
      host: "metadata.test",
      port: 80,
      lookup: strict as unknown as net.LookupFunction,
      autoSelectFamily: false,
    });
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => socket.once("error", resolve));
    expect(error.code).toBe("ESSRF");
    socket.destroy();
  });
});
