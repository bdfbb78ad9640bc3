import { describe, expect, it } from "vitest";
import { CSV_TEMPLATE, MAX_CSV_BYTES, parseEventsCsv } from "@/lib/events/csv-format";

const ok = (content: string | Buffer) => {
  const parsed = parseEventsCsv(content);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed;
};

describe("parseEventsCsv", () => {
  it("reads the template", () => {
    const parsed = ok(CSV_TEMPLATE);
    expect(parsed.rows).toHaveLength(2);
    expect(parsed.rows[0]).toMatchObject({ line: 2, values: { title: "Spring Open Day", description: "Tours, talks and coffee", location: "Berlin" } });
  });

  it("keeps commas, quotes and newlines inside quoted fields and numbers rows by their first line", () => {
    const parsed = ok('title,starts_at,description\n"Talk, with comma",2026-05-01T10:00:00Z,"Line one\nline ""two"""\nNext,2026-05-02T10:00:00Z,x\n');
    expect(parsed.rows[0].values.description).toBe('Line one\nline "two"');
    expect(parsed.rows.map((row) => row.line)).toEqual([2, 4]);
  });

  it("accepts a UTF-8 BOM, CRLF line ends and empty lines", () => {
    const parsed = ok("\uFEFFtitle,starts_at\r\n\r\nA,2026-05-01T10:00:00Z\r\n\r\nB,2026-05-02T10:00:00Z\r\n");
    expect(parsed.columns).toEqual(["title", "starts_at"]);
    expect(parsed.rows.map((row) => [row.line, row.values.title])).toEqual([
      [3, "A"],
      [5, "B"],
    ]);
  });

  it("rejects a header with a missing required column or an unknown one", () => {
    const missing = parseEventsCsv("name,starts_at\nA,2026-05-01T10:00:00Z\n");
    expect(missing).toMatchObject({ ok: false });
    expect(!missing.ok && missing.message).toMatch(/missing title; unknown "name"/);
  });

  it("reports a row with the wrong number of fields by line", () => {
    const parsed = ok("title,starts_at\nA,2026-05-01T10:00:00Z,extra\nB,2026-05-02T10:00:00Z\n");
    expect(parsed.problems).toEqual([{ line: 2, message: "Expected 2 fields, found 3." }]);
    expect(parsed.rows.map((row) => row.values.title)).toEqual(["B"]);
  });

  it("rejects files over 5 MiB before parsing", () => {
    const big = Buffer.alloc(MAX_CSV_BYTES + 1, "a");
    expect(parseEventsCsv(big)).toEqual({ ok: false, message: "The file is larger than 5 MiB. Split it into smaller files." });
  });

  it("rejects an unclosed quote and text that is not UTF-8", () => {
    expect(parseEventsCsv('title,starts_at\n"A,2026\n')).toMatchObject({ ok: false });
    expect(parseEventsCsv(Buffer.from([0x74, 0x69, 0xff, 0x0a]))).toEqual({ ok: false, message: "The file is not UTF-8 text. Save it as CSV UTF-8 and try again." });
  });

  it("rejects an empty file", () => {
    expect(parseEventsCsv("\n\n")).toEqual({ ok: false, message: "The file is empty. Start from the template." });
  });
});
