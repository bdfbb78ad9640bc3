import { describe, expect, it } from "vitest";
import { rateLimitKeyForIp, resolveClientIp, trustedProxyHops } from "@/lib/platform/http/client-ip";

describe("resolveClientIp", () => {
  it("uses the socket address and ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(resolveClientIp({ remoteAddress: "203.0.113.9", forwardedFor: "198.51.100.1", trustedHops: 0 })).toBe(
      "203.0.113.9",
    );
  });

  it("takes the entry the one trusted proxy appended", () => {
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: "1.1.1.1, 198.51.100.7", trustedHops: 1 })).toBe(
      "198.51.100.7",
    );
  });

  it("walks back one entry per further trusted hop", () => {
    expect(
      resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: "6.6.6.6, 198.51.100.7, 10.0.0.9", trustedHops: 2 }),
    ).toBe("198.51.100.7");
  });

  it("falls back to the socket when the chain is shorter than the trusted hops or not an address", () => {
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: undefined, trustedHops: 1 })).toBe("10.0.0.2");
    expect(resolveClientIp({ remoteAddress: "10.0.0.2", forwardedFor: "not-an-ip", trustedHops: 1 })).toBe("10.0.0.2");
  });

  it("reports an IPv4-mapped IPv6 peer as IPv4", () => {
    expect(resolveClientIp({ remoteAddress: "::ffff:127.0.0.1", forwardedFor: undefined, trustedHops: 0 })).toBe(
      "127.0.0.1",
    );
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

describe("rateLimitKeyForIp", () => {
  it("keys an IPv4 address, and an IPv4-mapped IPv6 address however written, as the IPv4 address", () => {
    expect(rateLimitKeyForIp("203.0.113.9")).toBe("203.0.113.9");
    expect(rateLimitKeyForIp("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(rateLimitKeyForIp("::FFFF:cb00:7109")).toBe("203.0.113.9");
    expect(rateLimitKeyForIp("[::ffff:203.0.113.9]")).toBe("203.0.113.9");
  });

  it("keys every address of one IPv6 /64 alike, in one canonical form", () => {
    const key = "2001:db8:1:2::/64";
    const spellings = [
      "2001:db8:1:2::1",
      "2001:DB8:1:2:aaaa:bbbb:cccc:dddd",
      "2001:0db8:0001:0002:0:0:0:ffff",
      "[2001:db8:1:2::9]",
      "2001:db8:1:2::1.2.3.4",
      "2001:db8:1:2::7%eth0",
    ];
    for (const address of spellings) expect(rateLimitKeyForIp(address)).toBe(key);
  });

  it("keeps different /64s apart and writes zero runs as RFC 5952 does", () => {
    expect(rateLimitKeyForIp("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(rateLimitKeyForIp("2001:db8::1")).toBe("2001:db8::/64");
    expect(rateLimitKeyForIp("2001:0:0:5::1")).toBe("2001:0:0:5::/64");
    expect(rateLimitKeyForIp("::1")).toBe("::/64");
    expect(rateLimitKeyForIp("fe80::1")).toBe("fe80::/64");
  });

  it("leaves a value that is not an address as it is", () => {
    expect(rateLimitKeyForIp("local")).toBe("local");
    expect(rateLimitKeyForIp("unknown")).toBe("unknown");
  });
});
