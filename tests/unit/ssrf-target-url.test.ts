import { describe, expect, it } from "vitest";
import { parseTargetUrl, validateTargetUrl } from "@/lib/webhook-subscriptions/target-url";

const strict = { allowLoopback: false };
const loose = { allowLoopback: true };
const reasonOf = (raw: string, options = strict) => {
  const parsed = parseTargetUrl(raw, options);
  return parsed.ok ? "ok" : parsed.code;
};

describe("parseTargetUrl", () => {
  it.each([
    ["https://hooks.example.com/incoming?x=1", "ok"],
    ["https://93.184.215.14:8443/hook", "ok"],
    ["https://[2606:4700:4700::1111]/hook", "ok"],
    ["http://hooks.example.com/incoming", "scheme_not_allowed"],
    ["ftp://hooks.example.com/file", "scheme_not_allowed"],
    ["file:///etc/passwd", "scheme_not_allowed"],
    ["javascript:alert(1)", "scheme_not_allowed"],
    ["hooks.example.com/incoming", "invalid_url"],
    ["", "invalid_url"],
    ["https://user:pass@hooks.example.com/", "credentials_not_allowed"],
    ["https://user@hooks.example.com/", "credentials_not_allowed"],
    ["https://127.0.0.1/", "private_address"],
    ["http://127.0.0.1", "private_address"],
    ["http://[::1]", "private_address"],
    ["http://169.254.169.254/latest/meta-data", "private_address"],
    ["http://10.0.0.1", "private_address"],
    ["https://[::ffff:10.0.0.1]/", "private_address"],
    ["https://[fd00::1]/", "private_address"],
    ["https://localhost/", "private_address"],
    ["https://LOCALHOST./", "private_address"],
    ["https://api.localhost/", "private_address"],
    // Other IPv4 spellings are normalised by the URL parser before the check.
    ["http://2130706433/", "private_address"],
    ["https://0x7f.1/", "private_address"],
    ["https://017700000001/", "private_address"],
    ["https://0xa9fea9fe/", "private_address"],
    ["https://10.1/", "private_address"],
    [`https://example.com/${"a".repeat(3_000)}`, "url_too_long"],
    // Port 443 and the unprivileged ports only: no SSH, SMTP, DNS or other well-known service.
    ["https://hooks.example.com:443/hook", "ok"],
    ["https://hooks.example.com:1024/hook", "ok"],
    ["https://hooks.example.com:65535/hook", "ok"],
    ["https://8.8.8.8:22/x", "port_not_allowed"],
    ["https://hooks.example.com:25/hook", "port_not_allowed"],
    ["https://hooks.example.com:80/hook", "port_not_allowed"],
    ["https://hooks.example.com:1023/hook", "port_not_allowed"],
    ["https://hooks.example.com:0/hook", "port_not_allowed"],
  ])("%s → %s", (raw, reason) => expect(reasonOf(raw)).toBe(reason));

  it("accepts loopback targets, also over http, only with loopback targets allowed", () => {
    for (const raw of [
      "http://127.0.0.1:4000/hook",
      "http://[::1]:4000/hook",
      "http://localhost:4000/hook",
      "https://127.0.0.2/",
      "http://2130706433/",
    ]) {
      expect(reasonOf(raw, loose)).toBe("ok");
      expect(reasonOf(raw, strict)).toBe("private_address");
    }
    for (const raw of [
      "http://169.254.169.254",
      "http://10.0.0.1",
      "ftp://127.0.0.1/",
      "http://hooks.example.com/",
      "https://user:pw@127.0.0.1/",
    ]) {
      expect(reasonOf(raw, loose)).not.toBe("ok");
    }
  });

  it("lets loopback targets use any port when loopback targets are allowed, and no other host", () => {
    for (const raw of ["http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::1]:22/"]) {
      expect(reasonOf(raw, loose)).toBe("ok");
    }
    expect(reasonOf("https://hooks.example.com:22/", loose)).toBe("port_not_allowed");
    expect(reasonOf("https://93.184.215.14:8080/", loose)).toBe("ok");
  });

  it("stores the normalised URL without its fragment", () => {
    expect(parseTargetUrl("https://0x5d.0xb8.0xd7.0x0e/hook#part", strict)).toMatchObject({
      ok: true,
      value: { url: "https://93.184.215.14/hook" },
    });
    expect(parseTargetUrl(" https://Hooks.Example.com ", strict)).toMatchObject({
      ok: true,
      value: { url: "https://hooks.example.com/" },
    });
  });

  it("allows 2,048 characters and refuses 2,049", () => {
    const base = "https://example.com/";
    expect(reasonOf(base + "a".repeat(2_048 - base.length))).toBe("ok");
    expect(reasonOf(base + "a".repeat(2_049 - base.length))).toBe("url_too_long");
  });
});

describe("validateTargetUrl", () => {
  const resolve = async (host: string) => {
    const answers: Record<string, { address: string; family: number }[]> = {
      "public.test": [{ address: "93.184.215.14", family: 4 }],
      "internal.test": [{ address: "10.1.2.3", family: 4 }],
      "sneaky.test": [
        { address: "93.184.215.14", family: 4 },
        { address: "fd00::5", family: 6 },
      ],
      "loop.test": [{ address: "127.0.0.1", family: 4 }],
    };
    if (!answers[host]) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return answers[host];
  };
  const check = async (raw: string, allowLoopback = false) => {
    const result = await validateTargetUrl(raw, { allowLoopback, resolve });
    return result.ok ? "ok" : result.code;
  };

  it("accepts a host name whose every address is public", async () => {
    expect(await check("https://public.test/hook")).toBe("ok");
  });

  it("refuses a host name that resolves to a private address, even among public ones", async () => {
    expect(await check("https://internal.test/hook")).toBe("private_address");
    expect(await check("https://sneaky.test/hook")).toBe("private_address");
  });

  it("refuses a name that does not resolve, or resolves too slowly, as one that resolves privately", async () => {
    // One answer for both, so that subscribing cannot tell which internal names exist.
    const privately = await validateTargetUrl("https://internal.test/hook", { allowLoopback: false, resolve });
    const nowhere = await validateTargetUrl("https://nowhere.test/hook", { allowLoopback: false, resolve });
    const stalled = await validateTargetUrl("https://slow.test/", {
      allowLoopback: false,
      resolve: () => new Promise(() => {}),
      timeoutMs: 20,
    });
    expect(privately).toMatchObject({ ok: false, code: "private_address" });
    const words = (result: typeof privately, host: string) => (result.ok ? "" : result.message.replace(host, "HOST"));
    expect(words(nowhere, "nowhere.test")).toBe(words(privately, "internal.test"));
    expect(words(stalled, "slow.test")).toBe(words(privately, "internal.test"));
    expect(nowhere).toMatchObject({ ok: false, code: "private_address" });
  });

  it("accepts a name resolving to loopback only when loopback targets are allowed", async () => {
    expect(await check("https://loop.test/")).toBe("private_address");
    expect(await check("https://loop.test/", true)).toBe("ok");
  });

  it("does not resolve IP literals or localhost", async () => {
    const refuse = async () => {
      throw new Error("must not resolve");
    };
    expect(await validateTargetUrl("https://93.184.215.14/", { allowLoopback: false, resolve: refuse })).toMatchObject({
      ok: true,
    });
    expect(await validateTargetUrl("http://localhost:3000/", { allowLoopback: true, resolve: refuse })).toMatchObject({
      ok: true,
    });
  });
});
