import { describe, expect, inject, it } from "vitest";
import { App, appTester, authData, baseUrl, bundle, failureOf } from "./support.mjs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const zapier = require("zapier-platform-core");

describe("the app definition", () => {
  it("passes the Zapier platform's schema validation", async () => {
    const handler = zapier.createAppHandler(App);
    const result = await new Promise((resolve, reject) =>
      handler({ command: "validate" }, {}, (error, value) => (error ? reject(error) : resolve(value))),
    );
    expect(result.results).toEqual([]);
  });
});

describe("authentication", () => {
  it("tests the connection with GET /api/public/zapier/me and labels it with the account and key names", async () => {
    const me = await appTester(App.authentication.test, bundle());
    expect(me.account.name).toBe("Zapier Test Co");
    expect(me.key.name).toBe("Zapier");
    expect(me.key.scopes).toEqual(expect.arrayContaining(["webhooks", "read:leads", "write:leads"]));
    const label = await appTester(App.authentication.connectionLabel, { ...bundle(), inputData: me });
    expect(label).toBe("Zapier Test Co (Zapier)");
  });

  it("accepts the base URL with a trailing slash and spaces around it", async () => {
    const me = await appTester(App.authentication.test, {
      authData: { ...authData(), base_url: ` ${baseUrl()}/ ` },
      inputData: {},
    });
    expect(me.account.name).toBe("Zapier Test Co");
  });

  it("refuses an http:// App URL other than this machine's, which would send the key unencrypted", async () => {
    const plainHttp = { authData: { ...authData(), base_url: "http://app.example.com" }, inputData: {} };
    const error = await failureOf(appTester(App.authentication.test, plainHttp));
    expect(error.message).toMatch(/The App URL must start with https:\/\//);
  });

  it("maps the API's 401 for an unknown key to ExpiredAuthError with the API's message", async () => {
    const error = await failureOf(appTester(App.authentication.test, bundle({}, "ik_live_this-is-not-a-valid-key")));
    expect(error.name).toBe("ExpiredAuthError");
    expect(error.message).toMatch(/API key was refused/);
  });

  it("maps the API's 401 for a revoked key to ExpiredAuthError", async () => {
    const error = await failureOf(appTester(App.authentication.test, bundle({}, inject("zapierRevokedKey"))));
    expect(error.name).toBe("ExpiredAuthError");
  });

  it("maps the API's 429 to ThrottledError carrying the Retry-After delay", async () => {
    // Exhaust the dedicated key's per-minute limit, then let the integration hit the 429.
    const key = inject("zapierThrottleKey");
    let limited = false;
    for (let sent = 0; sent < inject("zapierRateLimit") + 50 && !limited; sent += 25) {
      const statuses = await Promise.all(
        Array.from({ length: 25 }, () =>
          fetch(`${baseUrl()}/api/public/zapier/me`, { headers: { Authorization: `Bearer ${key}` } }).then(
            (response) => response.status,
          ),
        ),
      );
      limited = statuses.includes(429);
    }
    expect(limited).toBe(true);
    const error = await failureOf(appTester(App.authentication.test, bundle({}, key)));
    expect(error.name).toBe("ThrottledError");
    const { message, delay } = JSON.parse(error.message);
    expect(message).toMatch(/^Rate limit reached/);
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(60);
  });
});
