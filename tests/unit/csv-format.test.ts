import { describe, expect, it } from "vitest";
import {
  CSV_TEMPLATE,
  escapeCsvCell,
  MAX_CSV_BYTES,
  MAX_CSV_ROWS,
  parseEventsCsv,
  unescapeCsvCell,
} from "@/lib/events/csv-format";

const ok = async (content: string | Buffer) => {
  const parsed = await parseEventsCsv(content);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed;
};

describe("parseEventsCsv", () => {
  it("reads the template", async () => {
    const parsed = await ok(CSV_TEMPLATE);
    expect(parsed.rows).toHaveLength(2);
    expect(parsed.rows[0]).toMatchObject({
      line: 2,
      values: { title: "Spring Open Day", description: "Tours, talks and coffee", location: "Berlin" },
    });
  });

  it("keeps commas, quotes and newlines inside quoted fields and numbers rows by their first line", async () => {
    const parsed = await ok(
      'title,starts_at,description\n"Talk, with ' +
        'comma",2026-05-01T10:00:00Z,"Line one\nline ' +
        '""two"""\nNext,2026-05-02T10:00:00Z,x\n',
    );
    expect(parsed.rows[0].values.description).toBe('Line one\nline "two"');
    expect(parsed.rows.map((row) => row.line)).toEqual([2, 4]);
  });

  it("accepts a UTF-8 BOM, CRLF line ends and empty lines", async () => {
    const parsed = await ok("\uFEFFtitle,starts_at\r\n\r\nA,2026-05-01T10:00:00Z\r\n\r\nB,2026-05-02T10:00:00Z\r\n");
    expect(parsed.columns).toEqual(["title", "starts_at"]);
    expect(parsed.rows.map((row) => [row.line, row.values.title])).toEqual([
      [3, "A"],
      [5, "B"],
    ]);
  });

  it("rejects a header with a missing required column or an unknown one", async () => {
    const missing = await parseEventsCsv("name,starts_at\nA,2026-05-01T10:00:00Z\n");
    expect(missing).toMatchObject({ ok: false });
    expect(!missing.ok && missing.message).toMatch(/missing title; unknown "name"/);
  });

  it("reports a row with the wrong number of fields by line", async () => {
    const parsed = await ok("title,starts_at\nA,2026-05-01T10:00:00Z,extra\nB,2026-05-02T10:00:00Z\n");
    expect(parsed.problems).toEqual([{ line: 2, message: "Expected 2 fields, found 3." }]);
    expect(parsed.rows.map((row) => row.values.title)).toEqual(["B"]);
  });

  it("rejects files over 5 MiB before parsing", async () => {
    const big = Buffer.alloc(MAX_CSV_BYTES + 1, "a");
    expect(await parseEventsCsv(big)).toEqual({
      ok: false,
      message: "The file is larger than 5 MiB. Split it into smaller files.",
    });
  });

  it("rejects an unclosed quote and text that is not UTF-8", async () => {
    expect(await parseEventsCsv('title,starts_at\n"A,2026\n')).toMatchObject({ ok: false });
    expect(await parseEventsCsv(Buffer.from([0x74, 0x69, 0xff, 0x0a]))).toEqual({
      ok: false,
      message: "The file is not UTF-8 text. Save it as CSV UTF-8 and try again.",
    });
  });

  it("rejects an empty file", async () => {
    expect(await parseEventsCsv("\n\n")).toEqual({ ok: false, message: "The file is empty. Start from the template." });
  });
});

describe("streaming caps", () => {
  /** An upload as it arrives: chunks of 64 KiB, counting how many the parser asked for. */
  function upload(text: string) {
    const bytes = Buffer.from(text);
    const read = { chunks: 0 };
    async function* chunks() {
      for (let start = 0; start < bytes.length; start += 64 * 1024) {
        read.chunks++;
        yield bytes.subarray(start, start + 64 * 1024);
      }
    }
    return { source: chunks(), read, total: Math.ceil(bytes.length / (64 * 1024)) };
  }

  it("stops reading an upload as soon as it crosses 5 MiB", async () => {
    const { source, read, total } = upload("title,starts_at\n" + "x".repeat(8 * 1024 * 1024));
    expect(await parseEventsCsv(source)).toEqual({
      ok: false,
      message: "The file is larger than 5 MiB. Split it into smaller files.",
    });
    expect(read.chunks).toBe(MAX_CSV_BYTES / (64 * 1024) + 1);
    expect(read.chunks).toBeLessThan(total);
  });

  it("accepts exactly 100,000 rows and stops at row 100,001 without reading the rest", async () => {
    const rows = (count: number) => "title,starts_at\n" + "A,2026-05-01T10:00:00Z\n".repeat(count);
    let seen = 0;
    const exact = await parseEventsCsv(rows(MAX_CSV_ROWS), { onRow: () => seen++ });
    expect(exact).toMatchObject({ ok: true, total: MAX_CSV_ROWS, rows: [] });
    expect(seen).toBe(MAX_CSV_ROWS);
    const { source, read, total } = upload(rows(MAX_CSV_ROWS + 60_000));
    expect(await parseEventsCsv(source)).toEqual({
      ok: false,
      message: "The file has more than 100,000 rows. Split it into smaller files.",
    });
    expect(read.chunks).toBeLessThan(total);
  });

  it("rejects invalid UTF-8 split across chunks, and keeps a character split across chunks", async () => {
    async function* split(...parts: number[][]) {
      for (const part of parts) yield Uint8Array.from(part);
    }
    const header = [...Buffer.from("title,starts_at\n")];
    const euro = [...Buffer.from("€")];
    const good = await parseEventsCsv(
      split([...header, ...euro.slice(0, 1)], [...euro.slice(1), ...Buffer.from(",2026-05-01T10:00:00Z\n")]),
    );
    expect(good).toMatchObject({ ok: true, rows: [{ values: { title: "€" } }] });
    const bad = await parseEventsCsv(split([...header, 0xe2, 0x82], [0x41, 0x0a]));
    expect(bad).toEqual({ ok: false, message: "The file is not UTF-8 text. Save it as CSV UTF-8 and try again." });
  });
});

describe("formula injection", () => {
  it("prefixes cells starting with =, +, -, @, tab or CR with an apostrophe, and leaves others alone", () => {
    expect(["=1+1", "+49 30", "-5", "@SUM(A1)", "\tx", "\rx"].map(escapeCsvCell)).toEqual([
      "'=1+1",
      "'+49 30",
      "'-5",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
    ]);
    expect(["Yoga", "", "a=b", "'quoted", "€12"].map(escapeCsvCell)).toEqual(["Yoga", "", "a=b", "'quoted", "€12"]);
  });

  it("round-trips every value through export and import unchanged, apostrophes included", () => {
    for (const value of ['=HYPERLINK("x")', "'=already quoted", "''-two", "-", "'", "'plain", "plain", "@", "+"]) {
      expect(unescapeCsvCell(escapeCsvCell(value))).toBe(value);
    }
  });

  it("imports an escaped cell without its apostrophe", async () => {
    const parsed = await ok("title,starts_at,price\n'=1+1,2026-05-01T10:00:00Z,'-5\n");
    expect(parsed.rows[0].values).toMatchObject({ title: "=1+1", price: "-5" });
  });
});
