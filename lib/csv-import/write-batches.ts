import "server-only";
import type pg from "pg";
import { db } from "@/lib/platform/db/client";
import type { CsvImportSummary } from "./upload";

/** The most rows an import writes in one transaction. */
export const IMPORT_BATCH_SIZE = 500;

/**
 * An importer's write, after its rows were checked: `unique` keeps the last row for each record (an
 * earlier one counts as updated by the later), then the rows go batch by batch over one pool connection,
 * each batch in the transaction `writeBatch` runs, which adds what happened to `summary`.
 */
export async function writeInBatches<R>(
  rows: R[],
  unique: (rows: R[]) => R[],
  writeBatch: (client: pg.PoolClient, batch: R[], summary: CsvImportSummary) => Promise<void>,
): Promise<CsvImportSummary> {
  const summary: CsvImportSummary = { created: 0, updated: 0, unchanged: 0, failed: 0, problems: [] };
  const kept = unique(rows);
  summary.updated += rows.length - kept.length;
  const client = await db.pool.connect();
  try {
    for (let start = 0; start < kept.length; start += IMPORT_BATCH_SIZE) {
      await writeBatch(client, kept.slice(start, start + IMPORT_BATCH_SIZE), summary);
    }
  } finally {
    client.release();
  }
  summary.problems.sort((a, b) => a.line - b.line);
  return summary;
}
