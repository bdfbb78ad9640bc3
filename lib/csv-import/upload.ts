import "server-only";
import { recordAudit, type AuditAction, type AuditActor } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { parseCsv, type CsvLayout, type CsvRow, type CsvRowProblem, type CsvSource } from "@/lib/platform/csv/parse";

/*
 * The CSV upload behind the dashboard's import dialogs (POST /knowledge/events/import, /leads/import):
 * preview (validate only) or import (write the valid rows). What a row is, how it is checked and
 * written is the importer's (lib/events/csv-upload.ts, lib/leads/csv-import.ts); the rest is here. The file is parsed
 * as it streams in and refused the moment it crosses 5 MiB or 100,000 rows; an import keeps only the validated rows (so
 * that a file over a cap imports nothing), a preview keeps none, and neither keeps the file itself.
 *
 * One upload at a time per account, across instances: a lease row in rate_limits, taken with one
 * conditional upsert and deleted when the upload ends. A lease (not a lock held on a connection) keeps
 * a slow upload from holding a pool connection; if the process dies, the lease lapses after
 * LEASE_MS. Each process also runs at most MAX_UPLOADS_PER_PROCESS uploads at once, which bounds the
 * memory all accounts together can make it spend. The body must arrive within READ_DEADLINE_MS.
 */

/** A preview row: the importer's preview columns' cells, and what is wrong with the row. */
export type CsvPreviewRow = { line: number; cells: string[]; problems: string[] };
export type CsvImportState =
  | { stage: "idle" }
  | { stage: "error"; message: string }
  | {
      stage: "preview";
      fileName: string;
      total: number;
      valid: number;
      columns: string[];
      rows: CsvPreviewRow[];
      problems: CsvRowProblem[];
    }
  | { stage: "done"; created: number; updated: number; unchanged: number; failed: number; problems: CsvRowProblem[] };

/** `unchanged`: rows whose record was already exactly as the file has it (nothing written). */
export type CsvImportSummary = {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  problems: CsvRowProblem[];
};
export type CsvRowCheck<V> = { ok: true; row: V } | { ok: false; problems: CsvRowProblem[] };

/** One kind of import: its file layout, how a row is checked and how the valid rows are written. */
export type CsvImporter<C extends string, V> = {
  layout: CsvLayout<C>;
  /** The name a file without one gets, e.g. "events.csv". */
  defaultFileName: string;
  /** Headings and cells of the preview table (a few columns that identify a row). */
  preview: { columns: string[]; cells: (row: CsvRow<C>) => string[] };
  /** Called once per upload (e.g. to read the account's pipeline), then per row. */
  checker: (accountId: string) => Promise<(row: CsvRow<C>) => CsvRowCheck<V>>;
  write: (accountId: string, rows: V[]) => Promise<CsvImportSummary>;
  auditAction: AuditAction;
};

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
const LEASE_MS = 10 * 60_000;
const READ_DEADLINE_MS = 2 * 60_000;
export const MAX_UPLOADS_PER_PROCESS = 4;

let running = 0;

export const TOO_LARGE_MESSAGE = "The file is larger than 5 MiB. Split it into smaller files.";
const BUSY_MESSAGE = "Another CSV import or preview is running for this account. Try again when it has finished.";
const OVERLOADED_MESSAGE = "Too many CSV imports are running right now. Try again in a minute.";

class UploadInterrupted extends Error {
  constructor(
    readonly status: 400 | 408,
    message: string,
  ) {
    super(message);
  }
}
const interrupted = () => new UploadInterrupted(400, "The upload was interrupted. Try again.");
const tooSlow = () =>
  new UploadInterrupted(408, "The upload took longer than two minutes. Try again on a faster connection.");

/** A failure while reading the request body (the browser went away) is the client's, not ours. */
async function* interruptible(source: CsvUpload["body"], deadline: number): AsyncIterable<Uint8Array> {
  if (typeof source === "string" || source instanceof Uint8Array) {
    yield typeof source === "string" ? Buffer.from(source) : source;
    return;
  }
  const iterator = source instanceof ReadableStream ? readerIterator(source) : source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(tooSlow()), Math.max(0, deadline - Date.now()));
      });
      let chunk: IteratorResult<Uint8Array>;
      try {
        chunk = await Promise.race([iterator.next(), late]);
      } catch (failure) {
        throw failure instanceof UploadInterrupted ? failure : interrupted();
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    // Stopping early (a cap crossed, too slow) cancels the rest of the upload instead of reading it.
    iterator.return?.()?.catch(() => {});
  }
}

function readerIterator(stream: ReadableStream<Uint8Array>): AsyncIterator<Uint8Array> {
  const reader = stream.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    return: async () => {
      await reader.cancel().catch(() => {});
      return { done: true, value: undefined };
    },
  };
}

/** A file name as it may be shown and stored: no control characters, at most 200 characters. */
const cleanFileName = (name: string, fallback: string) =>
  [...name.replace(/[\u0000-\u001f\u007f]/g, "").trim()].slice(0, 200).join("") || fallback;

const error = (status: number, message: string): CsvUploadResult => ({ status, state: { stage: "error", message } });

const leaseKey = (accountId: string) => `csv-upload:${accountId}`;

/** Takes the account's upload lease unless a live one exists; returns its token, or null. */
async function takeLease(accountId: string): Promise<number | null> {
  const token = crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;
  const result = await db.pool.query(
    `INSERT INTO rate_limits AS r (key, points, expire)
     VALUES ($1::text, $2::int, (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $3::bigint)
     ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire
       WHERE r.expire IS NULL OR r.expire <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint
     RETURNING 1`,
    [leaseKey(accountId), token, LEASE_MS],
  );
  return result.rowCount ? token : null;
}

/** Only our own lease is removed: one that lapsed and was taken over stays with its new holder. */
async function releaseLease(accountId: string, token: number): Promise<void> {
  await db.pool.query("DELETE FROM rate_limits WHERE key = $1::text AND points = $2::int", [
    leaseKey(accountId),
    token,
  ]);
}

/** One account's upload at a time (events and leads share the lease), at most a few per process. */
export async function handleCsvUpload<C extends string, V>(
  upload: CsvUpload,
  importer: CsvImporter<C, V>,
): Promise<CsvUploadResult> {
  if (running >= MAX_UPLOADS_PER_PROCESS) return error(503, OVERLOADED_MESSAGE);
  running++;
  try {
    const token = await takeLease(upload.accountId);
    if (token === null) return error(409, BUSY_MESSAGE);
    try {
      return await readAndApply(upload, importer);
    } catch (failure) {
      if (failure instanceof UploadInterrupted) return error(failure.status, failure.message);
      throw failure;
    } finally {
      await releaseLease(upload.accountId, token).catch(() => {});
    }
  } finally {
    running--;
  }
}

async function readAndApply<C extends string, V>(
  upload: CsvUpload,
  importer: CsvImporter<C, V>,
): Promise<CsvUploadResult> {
  // A preview only counts the valid rows; an import keeps them until the whole file has passed the caps.
  const keep = upload.intent === "import";
  const validateCsvRow = await importer.checker(upload.accountId);
  const fileName = cleanFileName(upload.fileName, importer.defaultFileName);
  const valid: V[] = [];
  let validCount = 0;
  // Only the first problems are listed, so only those are kept; invalid rows are counted.
  const problems: CsvRowProblem[] = [];
  let invalidRows = 0;
  const preview: CsvRow<C>[] = [];
  const parsed = await parseCsv(interruptible(upload.body, Date.now() + READ_DEADLINE_MS), importer.layout, {
    onRow: (row) => {
      if (preview.length < PREVIEW_ROWS) preview.push(row);
      const result = validateCsvRow(row);
      if (!result.ok) {
        invalidRows++;
        if (problems.length < MAX_LISTED_PROBLEMS) problems.push(...result.problems);
        return;
      }
      validCount++;
      if (keep) valid.push(result.row);
    },
  });
  if (!parsed.ok) return error(parsed.message === TOO_LARGE_MESSAGE ? 413 : 400, parsed.message);
  // Both lists are in line order, so the first problems of the merge are among the first of each.
  problems.push(...parsed.problems.slice(0, MAX_LISTED_PROBLEMS));
  problems.sort((a, b) => a.line - b.line);
  const failedRows = invalidRows + parsed.problems.length;

  if (upload.intent === "preview") {
    const byLine = new Map<number, string[]>();
    for (const problem of problems)
      byLine.set(problem.line, [
        ...(byLine.get(problem.line) ?? []),
        problem.field ? `${problem.field}: ${problem.message}` : problem.message,
      ]);
    const rows = preview.map((row) => ({
      line: row.line,
      cells: importer.preview.cells(row),
      problems: byLine.get(row.line) ?? [],
    }));
    return {
      status: 200,
      state: {
        stage: "preview",
        fileName,
        total: parsed.total,
        valid: validCount,
        columns: importer.preview.columns,
        rows,
        problems: problems.slice(0, MAX_LISTED_PROBLEMS),
      },
    };
  }

  const summary = await importer.write(upload.accountId, valid);
  const failed = summary.failed + failedRows;
  await recordAudit({
    accountId: upload.accountId,
    actor: upload.actor,
    action: importer.auditAction,
    target: { type: "account", id: upload.accountId, label: fileName },
    metadata: {
      rows: parsed.total,
      created: summary.created,
      updated: summary.updated,
      unchanged: summary.unchanged,
      failed,
    },
  });
  const allProblems = [...problems, ...summary.problems].sort((a, b) => a.line - b.line);
  return {
    status: 200,
    state: {
      stage: "done",
      created: summary.created,
      updated: summary.updated,
      unchanged: summary.unchanged,
      failed,
      problems: allProblems.slice(0, MAX_LISTED_PROBLEMS),
    },
  };
}
