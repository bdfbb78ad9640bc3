import { describe, expect, it } from "vitest";
import { resolveClientIp, trustedProxyHops } from "@/lib/http/client-ip";

describe("resolveClientIp", () => {
  it("uses the socket address and ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(resolveClientIp({ remoteAddress: "203.0.113.9", forwardedFor: "198.51.100.1", trustedHops: 0 })).toBe("203.0.113.9");
  });

  it("takes the entry the one trusted proxy appended", () => {
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: "1.1.1.1, 198.51.100.7", trustedHops: 1 })).toBe("198.51.100.7");
  });

  it("walks back one entry per further trusted hop", () => {
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: "6.6.6.6, 198.51.100.7, 10.0.0.9", trustedHops: 2 })).toBe("198.51.100.7");
  });

  it("falls back to the socket when the chain is shorter than the trusted hops or not an address", () => {
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: undefined, trustedHops: 1 })).toBe("10.0.0.2");
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: "not-an-ip", trustedHops: 1 })).toBe("10.0.0.2");
  });

  it("reports an IPv4-mapped IPv6 peer as IPv4", () => {
    expect(resolveClientIp({ remoteAddress: "::ffff:127.0.0.1", forwardedFor: undefined, trustedHops: 0 })).toBe("127.0.0.1");
  });
});

describe("trustedProxyHops", () => {
  it("defaults to 0 and ignores values that are not small whole numbers", () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: "2" })).toBe(2);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: "-1" })).toBe(0);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: "x" })).toBe(0);
  });
});
