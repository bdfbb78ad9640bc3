import {
  parseCsv,
  type CsvLayout,
  type CsvRow as GenericCsvRow,
  type CsvSource,
  type ParseCsvOptions,
  type ParsedCsv as GenericParsedCsv,
} from "@/lib/platform/csv/parse";

/*
 * The CSV format of the bulk event import (and export): the columns below, one event per row. Parsing,
 * caps and formula escaping are the shared CSV format's (lib/platform/csv/parse.ts).
 */

export {
  escapeCsvCell,
  MAX_CSV_BYTES,
  MAX_CSV_ROWS,
  unescapeCsvCell,
  type CsvRowProblem,
  type CsvSource,
} from "@/lib/platform/csv/parse";

/** `exceptions`: a series' removed occurrences (lib/events/csv-exceptions.ts); a file without it keeps them. */
export const CSV_COLUMNS = [
  "title",
  "starts_at",
  "ends_at",
  "description",
  "location",
  "url",
  "price",
  "recurring",
  "status",
  "exceptions",
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export const REQUIRED_CSV_COLUMNS: readonly CsvColumn[] = ["title", "starts_at"];
export const EVENTS_CSV_LAYOUT: CsvLayout<CsvColumn> = { columns: CSV_COLUMNS, required: REQUIRED_CSV_COLUMNS };

export type CsvRow = GenericCsvRow<CsvColumn>;
export type ParsedCsv = GenericParsedCsv<CsvColumn>;

export const CSV_TEMPLATE =
  "title,starts_at,ends_at,description,location,url,price,recurring,status,exceptions\r\n" +
  'Spring Open Day,2026-05-01T10:00:00+02:00,2026-05-01T16:00:00+02:00,"Tours, talks and coffee",Berlin,' +
  "https://example.com/open-day,Free,,upcoming,\r\n" +
  "Weekly Yoga,2026-05-04T18:30:00Z,2026-05-04T19:30:00Z,Beginner friendly,Studio 2,,€12,weekly,upcoming," +
  "cancelled 2026-05-25T18:30:00Z\r\n";

export function parseEventsCsv(source: CsvSource, options: ParseCsvOptions<CsvColumn> = {}): Promise<ParsedCsv> {
  return parseCsv(source, EVENTS_CSV_LAYOUT, options);
}
