import "server-only";
import {
  handleCsvUpload as handleUpload,
  type CsvImporter,
  type CsvUpload,
  type CsvUploadResult,
} from "@/lib/csv-import/upload";
import { accountTimeZone } from "./csv-export";
import { EVENTS_CSV_LAYOUT, type CsvColumn } from "./csv-format";
import { importEvents, validateCsvRow, type ValidRow } from "./csv-import";

/*
 * The events CSV import (POST /knowledge/events/import): rows checked with the webhook's schema and
 * written as upserts. The upload itself (streaming parse, caps, one upload per account) is the shared
 * lib/csv-import/upload.ts.
 */

export {
  MAX_UPLOADS_PER_PROCESS,
  TOO_LARGE_MESSAGE,
  type CsvImportState,
  type CsvPreviewRow,
  type CsvUpload,
  type CsvUploadResult,
} from "@/lib/csv-import/upload";

/** The row check in the account's time zone, in which a row's exceptions must be occurrences of its series. */
async function checkerFor(accountId: string) {
  const timeZone = await accountTimeZone(accountId);
  return (row: Parameters<typeof validateCsvRow>[0]) => validateCsvRow(row, timeZone);
}

export const EVENTS_IMPORTER: CsvImporter<CsvColumn, ValidRow> = {
  layout: EVENTS_CSV_LAYOUT,
  defaultFileName: "events.csv",
  preview: {
    columns: ["Title", "Starts", "Location"],
    cells: (row) => [row.values.title ?? "", row.values.starts_at ?? "", row.values.location ?? ""],
  },
  checker: checkerFor,
  write: importEvents,
  auditAction: "events.imported",
};

export function handleCsvUpload(upload: CsvUpload): Promise<CsvUploadResult> {
  return handleUpload(upload, EVENTS_IMPORTER);
}
