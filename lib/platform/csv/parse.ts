import { CsvError, parse } from "csv-parse";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/*
 * The CSV format of the dashboard's bulk imports (and exports), whatever they hold: one header row
 * naming the columns (a layout says which are known and which are required), then one record per row.
 * Quoted fields may hold commas and newlines; a UTF-8 BOM, CRLF line ends and empty lines are accepted.
 * Server-side only (it uses Node streams).
 */

export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const MAX_CSV_ROWS = 100_000;

/** The columns a file may have (any order, each at most once) and those it must have. */
export type CsvLayout<C extends string = string> = { columns: readonly C[]; required: readonly C[] };

export type CsvRow<C extends string = string> = { line: number; values: Partial<Record<C, string>> };
export type CsvRowProblem = { line: number; field?: string; message: string };
export type ParsedCsv<C extends string = string> =
  /** `total` counts every data row, including those reported in `problems`. */
  | { ok: true; columns: C[]; rows: CsvRow<C>[]; problems: CsvRowProblem[]; total: number }
  | { ok: false; message: string };

const newlines = (text: string) => text.split("\n").length - 1;

function headerProblem(header: string[], layout: CsvLayout): string | null {
  const unknown = header.filter((name) => !layout.columns.includes(name));
  const missing = layout.required.filter((name) => !header.includes(name));
  const repeated = header.filter((name, index) => header.indexOf(name) !== index);
  if (!unknown.length && !missing.length && !repeated.length) return null;
  const parts = [
    missing.length ? `missing ${missing.join(", ")}` : "",
    unknown.length ? `unknown ${unknown.map((name) => `"${name}"`).join(", ")}` : "",
    repeated.length ? `repeated ${repeated.join(", ")}` : "",
  ].filter(Boolean);
  return `The header row is wrong (${parts.join("; ")}). Expected columns: ${layout.columns.join(", ")}.`;
}

/*
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that begins with =, +, -, @, tab
 * or carriage return as a formula. The export prefixes such cells with an apostrophe, which spreadsheets
 * show as text and hide. So that an exported file imports back unchanged, the import removes exactly
 * one apostrophe from a cell that consists of apostrophes followed by one of those characters, and the
 * export adds one to such cells as well. The only value this changes is a hand-written cell like
 * "'=A1" in a file that did not come from the export: it is imported as "=A1" (which is what a
 * spreadsheet displays for it too).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA_START = /^'+[=+\-@\t\r]/;

export const escapeCsvCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);
export const unescapeCsvCell = (value: string): string => (ESCAPED_FORMULA_START.test(value) ? value.slice(1) : value);

const TOO_LARGE = "The file is larger than 5 MiB. Split it into smaller files.";
const NOT_UTF8 = "The file is not UTF-8 text. Save it as CSV UTF-8 and try again.";
const TOO_MANY_ROWS =
  `The file has more than ${MAX_CSV_ROWS.toLocaleString("en-US")} rows. ` + `Split it into smaller files.`;

/** Where the bytes come from: a whole file, or a stream (an upload) read as it arrives. */
export type CsvSource = string | Uint8Array | AsyncIterable<Uint8Array>;

export type ParseCsvOptions<C extends string = string> = {
  /** Receives each row as it is parsed; the result's `rows` then stays empty, so memory holds what the caller keeps. */
  onRow?: (row: CsvRow<C>) => void;
};

class CsvStop extends Error {}

async function* chunksOf(source: CsvSource): AsyncIterable<Uint8Array> {
  if (typeof source === "string") yield Buffer.from(source);
  else if (source instanceof Uint8Array) yield source;
  else yield* source;
}

/**
 * Passes the bytes on to the parser, stopping as soon as the byte cap is crossed (the rest of the upload
 * is never read) or the text is not UTF-8 (checked as it streams; the parser decodes the same bytes).
 */
async function* capped(source: CsvSource): AsyncIterable<Buffer> {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  for await (const chunk of chunksOf(source)) {
    bytes += chunk.byteLength;
    if (bytes > MAX_CSV_BYTES) throw new CsvStop(TOO_LARGE);
    try {
      utf8.decode(chunk, { stream: true });
    } catch {
      throw new CsvStop(NOT_UTF8);
    }
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
  try {
    utf8.decode();
  } catch {
    throw new CsvStop(NOT_UTF8);
  }
}

type ParsedRecord = { record: string[]; info: { lines: number } };

/**
 * Parses a file of the layout as a stream: at most 5 MiB and 100,000 rows, each checked the moment it
 * is crossed. Rows with the wrong number of fields are reported as problems; the rest are returned (or
 * handed to `onRow`).
 */
export async function parseCsv<C extends string>(
  source: CsvSource,
  layout: CsvLayout<C>,
  options: ParseCsvOptions<C> = {},
): Promise<ParsedCsv<C>> {
  if (
    typeof source === "string"
      ? Buffer.byteLength(source) > MAX_CSV_BYTES
      : source instanceof Uint8Array && source.byteLength > MAX_CSV_BYTES
  ) {
    return { ok: false, message: TOO_LARGE };
  }
  let columns: C[] | null = null;
  let count = 0;
  const rows: CsvRow<C>[] = [];
  const problems: CsvRowProblem[] = [];
  const onRow = options.onRow ?? ((row: CsvRow<C>) => rows.push(row));
  // Why the sink stopped early; pipeline may report that as an AbortError of the other streams.
  let stop: CsvStop | null = null;
  const stopWith = (message: string) => {
    stop = new CsvStop(message);
    return stop;
  };

  const consume = async (records: AsyncIterable<ParsedRecord>) => {
    for await (const { record, info } of records) {
      if (!columns) {
        const header = record.map((name) => name.trim().toLowerCase());
        const problem = headerProblem(header, layout as CsvLayout);
        if (problem) throw stopWith(problem);
        columns = header as C[];
        continue;
      }
      if (++count > MAX_CSV_ROWS) throw stopWith(TOO_MANY_ROWS);
      // csv-parse reports where a record ends; a quoted field with newlines started that many lines earlier.
      const line = info.lines - record.reduce((sum, value) => sum + newlines(value), 0);
      if (record.length !== columns.length) {
        problems.push({ line, message: `Expected ${columns.length} fields, found ${record.length}.` });
        continue;
      }
      const values: CsvRow<C>["values"] = {};
      columns.forEach((column: C, index) => {
        values[column] = unescapeCsvCell(record[index]);
      });
      onRow({ line, values });
    }
  };

  try {
    await pipeline(
      Readable.from(capped(source)),
      parse({ bom: true, info: true, skip_empty_lines: true, relax_column_count: true }),
      consume,
    );
  } catch (caught) {
    const error = stop ?? caught;
    if (error instanceof CsvStop) return { ok: false, message: error.message };
    if (error instanceof CsvError) {
      const line = (error as { lines?: number }).lines;
      return {
        ok: false,
        message: `The file is not valid CSV${line ? ` (near line ${line})` : ""}: check for an unclosed quote.`,
      };
    }
    throw error;
  }
  if (!columns) return { ok: false, message: "The file is empty. Start from the template." };
  return { ok: true, columns, rows, problems, total: count };
}
