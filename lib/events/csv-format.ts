import { parse } from "csv-parse/sync";

/*
 * The CSV format of the bulk event import (and export): one header row naming the columns, then one
 * event per row. Quoted fields may hold commas and newlines; a UTF-8 BOM, CRLF line ends and empty lines
 * are accepted.
 */

export const CSV_COLUMNS = ["title", "starts_at", "ends_at", "description", "location", "url", "price", "recurring", "status"] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export const REQUIRED_CSV_COLUMNS: readonly CsvColumn[] = ["title", "starts_at"];
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const MAX_CSV_ROWS = 100_000;

export type CsvRow = { line: number; values: Partial<Record<CsvColumn, string>> };
export type CsvRowProblem = { line: number; field?: string; message: string };
export type ParsedCsv =
  | { ok: true; columns: CsvColumn[]; rows: CsvRow[]; problems: CsvRowProblem[] }
  | { ok: false; message: string };

export const CSV_TEMPLATE =
  "title,starts_at,ends_at,description,location,url,price,recurring,status\r\n" +
  'Spring Open Day,2026-05-01T10:00:00+02:00,2026-05-01T16:00:00+02:00,"Tours, talks and coffee",Berlin,https://example.com/open-day,Free,,upcoming\r\n' +
  "Weekly Yoga,2026-05-04T18:30:00Z,2026-05-04T19:30:00Z,Beginner friendly,Studio 2,,€12,weekly,upcoming\r\n";

const newlines = (text: string) => text.split("\n").length - 1;

function headerProblem(header: string[]): string | null {
  const unknown = header.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  const missing = REQUIRED_CSV_COLUMNS.filter((name) => !header.includes(name));
  const repeated = header.filter((name, index) => header.indexOf(name) !== index);
  if (!unknown.length && !missing.length && !repeated.length) return null;
  const parts = [
    missing.length ? `missing ${missing.join(", ")}` : "",
    unknown.length ? `unknown ${unknown.map((name) => `"${name}"`).join(", ")}` : "",
    repeated.length ? `repeated ${repeated.join(", ")}` : "",
  ].filter(Boolean);
  return `The header row is wrong (${parts.join("; ")}). Expected columns: ${CSV_COLUMNS.join(", ")}.`;
}

export function parseEventsCsv(content: Buffer | string): ParsedCsv {
  const bytes = typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
  if (bytes > MAX_CSV_BYTES) return { ok: false, message: "The file is larger than 5 MiB. Split it into smaller files." };
  let text: string;
  try {
    text = typeof content === "string" ? content : new TextDecoder("utf-8", { fatal: true }).decode(content);
  } catch {
    return { ok: false, message: "The file is not UTF-8 text. Save it as CSV UTF-8 and try again." };
  }

  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return { ok: false, message: `The file is not valid CSV${line ? ` (near line ${line})` : ""}: check for an unclosed quote.` };
  }
  if (records.length === 0) return { ok: false, message: "The file is empty. Start from the template." };

  const header = records[0].record.map((name) => name.trim().toLowerCase());
  const problem = headerProblem(header);
  if (problem) return { ok: false, message: problem };
  if (records.length - 1 > MAX_CSV_ROWS) return { ok: false, message: `The file has more than ${MAX_CSV_ROWS.toLocaleString("en-US")} rows.` };

  const columns = header as CsvColumn[];
  const rows: CsvRow[] = [];
  const problems: CsvRowProblem[] = [];
  for (const { record, info } of records.slice(1)) {
    // csv-parse reports where a record ends; a quoted field with newlines started that many lines earlier.
    const line = info.lines - record.reduce((sum, value) => sum + newlines(value), 0);
    if (record.length !== columns.length) {
      problems.push({ line, message: `Expected ${columns.length} fields, found ${record.length}.` });
      continue;
    }
    const values: CsvRow["values"] = {};
    columns.forEach((column, index) => {
      values[column] = record[index];
    });
    rows.push({ line, values });
  }
  return { ok: true, columns, rows, problems };
}
