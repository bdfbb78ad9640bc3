import { describe, expect, it } from "vitest";
import * as catchAll from "@/app/api/[...path]/route";
import * as me from "@/app/api/public/zapier/me/route";
import * as webhook from "@/app/api/v1/events/webhook/[sourceId]/route";

/*
 * Under Next.js (next dev, next start): paths below /api/ that no route claims, and wrong methods on
 * known routes, answer the API's JSON error body instead of the HTML 404 page. The production server's
 * own answers for these are tested in production-server.test.ts.
 */

async function expectJsonError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({ ok: false, error: { code, message: expect.any(String), details: [] } });
}

describe("/api/ paths that match no route", () => {
  it.each(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const)(
    "answer %s with 404 not_found as JSON",
    async (method) => {
      await expectJsonError(catchAll[method](), 404, "not_found");
    },
  );
});

describe("known /api/ paths asked with the wrong method", () => {
  it("the webhook answers 405 with Allow: POST", async () => {
    for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
      const response = webhook[method]();
      expect(response.headers.get("Allow")).toBe("POST");
      await expectJsonError(response, 405, "method_not_allowed");
    }
  });

  it("/me answers 405 with Allow: GET, HEAD", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const response = me[method]();
      expect(response.headers.get("Allow")).toBe("GET, HEAD");
      await expectJsonError(response, 405, "method_not_allowed");
    }
  });
});
