import "server-only";
import type pg from "pg";
import { recordAudit, type AuditActor } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { parseEventsCsv, type CsvRow, type CsvRowProblem, type CsvSource } from "./csv-format";
import { importEvents, validateCsvRow, type ValidRow } from "./csv-import";

/*
 * The CSV upload behind the dashboard's import dialog (POST /knowledge/events/import): preview
 * (validate only) or import (write the valid rows). The file is parsed as it streams in and refused the
 * moment it crosses 5 MiB or 100,000 rows; only validated rows are kept, never the file itself. One
 * upload at a time per account: a PostgreSQL advisory lock, held on one connection for the whole
 * upload, so it spans instances and is released if the process dies.
 */

export type CsvPreviewRow = { line: number; title: string; startsAt: string; location: string; problems: string[] };
export type CsvImportState =
  | { stage: "idle" }
  | { stage: "error"; message: string }
  | { stage: "preview"; fileName: string; total: number; valid: number; rows: CsvPreviewRow[]; problems: CsvRowProblem[] }
  | { stage: "done"; created: number; updated: number; failed: number; problems: CsvRowProblem[] };

export type CsvUpload = {
  accountId: string;
  actor: AuditActor;
  intent: "preview" | "import";
  fileName: string;
  body: CsvSource | ReadableStream<Uint8Array>;
};

export type CsvUploadResult = { status: number; state: CsvImportState };

const MAX_LISTED_PROBLEMS = 200;
const PREVIEW_ROWS = 10;
// The first key of the advisory lock names the purpose, so the lock cannot collide with other uses.
const UPLOAD_LOCK_CLASS = 0x63737669; // "csvi"

export const TOO_LARGE_MESSAGE = "The file is larger than 5 MiB. Split it into smaller files.";
const BUSY_MESSAGE = "Another CSV import or preview is running for this account. Try again when it has finished.";

class UploadInterrupted extends Error {}

/** A failure while reading the request body (the browser went away) is the client's, not ours. */
async function* interruptible(source: CsvUpload["body"]): AsyncIterable<Uint8Array> {
  if (typeof source === "string" || source instanceof Uint8Array) {
    yield typeof source === "string" ? Buffer.from(source) : source;
    return;
  }
  if (!(source instanceof ReadableStream)) {
    try {
      yield* source;
    } catch {
      throw new UploadInterrupted();
    }
    return;
  }
  const reader = source.getReader();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw new UploadInterrupted();
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    // Stopping early (a cap crossed) cancels the rest of the upload instead of reading it.
    reader.cancel().catch(() => {});
  }
}

/** A file name as it may be shown and stored: no control characters, at most 200 characters. */
const cleanFileName = (name: string) => [...name.replace(/[\u0000-\u001f\u007f]/g, "").trim()].slice(0, 200).join("") || "events.csv";

const error = (status: number, message: string): CsvUploadResult => ({ status, state: { stage: "error", message } });

async function tryLock(client: pg.PoolClient, accountId: string): Promise<boolean> {
  const result = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1::int, hashtext($2::text)) AS locked", [UPLOAD_LOCK_CLASS, accountId]);
  return result.rows[0].locked;
}

export async function handleCsvUpload(upload: CsvUpload): Promise<CsvUploadResult> {
  const client = await db.pool.connect();
  let broken = false;
  let locked = false;
  try {
    locked = await tryLock(client, upload.accountId);
    if (!locked) return error(409, BUSY_MESSAGE);
    return await readAndApply(upload, client);
  } catch (failure) {
    if (failure instanceof UploadInterrupted) return error(400, "The upload was interrupted. Try again.");
    broken = true;
    throw failure;
  } finally {
    if (locked) {
      await client.query("SELECT pg_advisory_unlock($1::int, hashtext($2::text))", [UPLOAD_LOCK_CLASS, upload.accountId]).catch(() => {
        broken = true;
      });
    }
    // A connection in an unknown state (or still holding the lock) is closed, which releases the lock.
    client.release(broken);
  }
}

async function readAndApply(upload: CsvUpload, client: pg.PoolClient): Promise<CsvUploadResult> {
  const valid: ValidRow[] = [];
  const problems: CsvRowProblem[] = [];
  const preview: CsvRow[] = [];
  const parsed = await parseEventsCsv(interruptible(upload.body), {
    onRow: (row) => {
      if (preview.length < PREVIEW_ROWS) preview.push(row);
      const result = validateCsvRow(row);
      if (result.ok) valid.push(result.row);
      else problems.push(...result.problems);
    },
  });
  if (!parsed.ok) return error(parsed.message === TOO_LARGE_MESSAGE ? 413 : 400, parsed.message);
  problems.push(...parsed.problems);
  problems.sort((a, b) => a.line - b.line);

  if (upload.intent === "preview") {
    const byLine = new Map<number, string[]>();
    for (const problem of problems) byLine.set(problem.line, [...(byLine.get(problem.line) ?? []), problem.field ? `${problem.field}: ${problem.message}` : problem.message]);
    const rows = preview.map((row) => ({
      line: row.line,
      title: row.values.title ?? "",
      startsAt: row.values.starts_at ?? "",
      location: row.values.location ?? "",
      problems: byLine.get(row.line) ?? [],
    }));
    return {
      status: 200,
      state: { stage: "preview", fileName: cleanFileName(upload.fileName), total: parsed.total, valid: valid.length, rows, problems: problems.slice(0, MAX_LISTED_PROBLEMS) },
    };
  }

  const summary = await importEvents(upload.accountId, valid, client);
  const failed = summary.failed + new Set(problems.map((problem) => problem.line)).size;
  await recordAudit({
    accountId: upload.accountId,
    actor: upload.actor,
    action: "events.imported",
    target: { type: "account", id: upload.accountId, label: cleanFileName(upload.fileName) },
    metadata: { rows: parsed.total, created: summary.created, updated: summary.updated, failed },
  });
  const allProblems = [...problems, ...summary.problems].sort((a, b) => a.line - b.line);
  return { status: 200, state: { stage: "done", created: summary.created, updated: summary.updated, failed, problems: allProblems.slice(0, MAX_LISTED_PROBLEMS) } };
}
