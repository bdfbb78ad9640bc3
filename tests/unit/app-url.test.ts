import { describe, expect, it } from "vitest";
import { appBaseUrl } from "@/lib/platform/http/app-url";

describe("appBaseUrl", () => {
  it("prefers APP_BASE_URL over NEXTAUTH_URL and drops trailing slashes", () => {
    expect(appBaseUrl({ APP_BASE_URL: "https://app.example.com//", NEXTAUTH_URL: "https://auth.example.com" })).toBe(
      "https://app.example.com",
    );
    expect(appBaseUrl({ NEXTAUTH_URL: "https://auth.example.com/" })).toBe("https://auth.example.com");
  });

  it("falls back to the local development address when neither is set", () => {
    expect(appBaseUrl({})).toBe("http://localhost:3000");
  });
});
