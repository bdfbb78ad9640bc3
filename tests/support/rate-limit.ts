import { expect } from "vitest";

/** The headers of a 429 from a one-minute window of `limit` requests: when to retry, and nothing left. */
export function expectWindowSpent(headers: Headers, limit: number): void {
  const retryAfter = Number(headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(headers.get("RateLimit-Limit")).toBe(String(limit));
  expect(headers.get("RateLimit-Remaining")).toBe("0");
  expect(Number(headers.get("RateLimit-Reset"))).toBe(retryAfter);
}
