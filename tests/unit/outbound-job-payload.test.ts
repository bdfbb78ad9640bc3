import { describe, expect, it } from "vitest";
import { parseJobPayload } from "@/lib/outbound/deliver";

const a = "0b6c3a52-8f0e-4d8a-9a53-2f1f7a9c1d11";
const b = "5d9e2f10-1c3b-4e5a-8b7c-9d0e1f2a3b4c";

describe("the payload of a deliver job", () => {
  it("names one delivery (a retry, a resend, a test): not a chunk of first attempts", () => {
    expect(parseJobPayload({ delivery_id: a })).toEqual({ ids: [a], firstAttempts: false });
  });

  it("names a chunk of first attempts from the fan-out relay, keeping only well-formed ids", () => {
    expect(parseJobPayload({ delivery_ids: [a, "not-a-uuid", 7, b] })).toEqual({ ids: [a, b], firstAttempts: true });
  });

  it("is refused when it names nothing usable", () => {
    for (const payload of [null, {}, { delivery_id: "x" }, { delivery_ids: "x" }, [a], "text"])
      expect(parseJobPayload(payload)).toBeNull();
  });
});
