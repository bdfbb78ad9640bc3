import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { failureOf } from "../support/failure";

/*
 * The Zapier integration's App URL (integrations/zapier/src/base-url.js), where every request and its key go.
 * The integration's own tests need a production build of the app; these run its code without one.
 */

const require = createRequire(import.meta.url);
const App = require("../../integrations/zapier/index.js");
const { baseUrl } = require("../../integrations/zapier/src/api.js");
const zapier = require("zapier-platform-core");
const appTester = zapier.createAppTester(App);
const parseBaseUrl = (raw: string): string => baseUrl({ authData: { base_url: raw } });

describe("the Zapier connection's App URL", () => {
  it.each([
    ["app.example.com", "https://app.example.com"],
    [" https://chat.example.com/ ", "https://chat.example.com"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080"],
    ["http://[::1]:3000", "http://[::1]:3000"],
  ])("accepts %j as %j", (raw, expected) => {
    expect(parseBaseUrl(raw)).toBe(expected);
  });

  const refusal = /must start with https:\/\/.*only for localhost, 127\.0\.0\.1 and \[::1\]/;
  it.each([
    "http://app.example.com",
    "HTTP://chat.example.com:3000",
    "http://10.0.0.5",
    "http://localhost.example.com",
    "ftp://app.example.com",
  ])("refuses %j, which would send the key unencrypted", (raw) => {
    expect(() => parseBaseUrl(raw)).toThrow(refusal);
  });

  it("refuses an http App URL in the connection test with a message that says why", async () => {
    const bundle = { authData: { base_url: "http://app.example.com", api_key: "ik_live_x" }, inputData: {} };
    const error = await failureOf(appTester(App.authentication.test, bundle));
    expect(error.message).toMatch(/The App URL must start with https:\/\//);
    expect(error.message).toContain("http://app.example.com");
  });
});
