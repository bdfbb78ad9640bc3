import fc from "fast-check";
import { foldLines } from "ical-generator";
import { describe, expect, it } from "vitest";
import { foldLongLines } from "@/lib/events/ical-fold";

describe("iCalendar line folding", () => {
  it("folds exactly as ical-generator's foldLines on random lines of any script, emoji included", () => {
    const line = fc.string({
      unit: fc.oneof(
        fc.constantFrom("a", " ", ";", "é", "€", "中", "😀", "👩‍👩‍👧"),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      ),
      maxLength: 400,
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const text = lines.join("\r\n");
        expect(foldLongLines(text)).toBe(foldLines(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("never lets a folded line pass 75 octets, the continuation's space included", () => {
    const folded = foldLongLines(`DESCRIPTION:${"Concert für Jazz & Blues 🎷 — ".repeat(20)}`);
    for (const line of folded.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replaceAll("\r\n ", "")).toBe(`DESCRIPTION:${"Concert für Jazz & Blues 🎷 — ".repeat(20)}`);
  });
});
