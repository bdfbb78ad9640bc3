import "server-only";
import { PLANS, type PlanName } from "@/lib/accounts/plans";
import { db } from "@/lib/db/client";
import type { CsvRow, CsvRowProblem, ParsedCsv } from "./csv-format";
import { parseEventFields, type EventInput } from "./schema";

/*
 * The bulk initial import (spec 4.3: no rate limit). Rows are validated with the webhook's own schema,
 * then written as upserts in batches: one INSERT … SELECT FROM unnest(…) ON CONFLICT per batch, so
 * 10,000 rows cost 20 statements, not 10,000. The plan's limit is checked against the account's event
 * count before each batch. The account row is not locked first: the count trigger locks it after the
 * events, the same order the webhook takes, so an import racing the webhook cannot deadlock it; like the
 * webhook, concurrent writers may overshoot the limit by what is in flight.
 */

export const IMPORT_BATCH_SIZE = 500;

export type ValidRow = { line: number; input: EventInput };
export type CsvValidation = { valid: ValidRow[]; problems: CsvRowProblem[] };
export type ImportSummary = { created: number; updated: number; failed: number; problems: CsvRowProblem[] };

const REQUIRED = new Set(["title", "starts_at"]);

/** Empty optional cells mean "not given", exactly as an omitted JSON field does. */
function wireFields(row: CsvRow): Record<string, string> {
  return Object.fromEntries(Object.entries(row.values).filter(([key, value]) => value !== "" || REQUIRED.has(key))) as Record<string, string>;
}

export function validateCsvRows(parsed: Extract<ParsedCsv, { ok: true }>): CsvValidation {
  const valid: ValidRow[] = [];
  const problems: CsvRowProblem[] = [...parsed.problems];
  for (const row of parsed.rows) {
    const result = parseEventFields(wireFields(row));
    if (result.ok) valid.push({ line: row.line, input: result.value });
    else for (const detail of result.details) problems.push({ line: row.line, field: detail.field, message: detail.message });
  }
  problems.sort((a, b) => a.line - b.line);
  return { valid, problems };
}

const identityKey = (input: EventInput) => `${input.title}\u0000${input.startsAt.toISOString()}\u0000${input.location}`;

/** A later row for the same event replaces an earlier one, as a later upsert would. */
function lastOccurrences(rows: ValidRow[]): ValidRow[] {
  const byIdentity = new Map<string, ValidRow>();
  for (const row of rows) {
    const key = identityKey(row.input);
    byIdentity.delete(key);
    byIdentity.set(key, row);
  }
  return [...byIdentity.values()];
}

const COLUMNS = ["title", "starts_at", "starts_at_offset", "ends_at", "description", "location", "url", "price", "recurring", "status"] as const;
const CASTS = ["text", "timestamptz", "text", "timestamptz", "text", "text", "text", "text", "text", '"EventStatus"'];

function columnArrays(rows: ValidRow[]): unknown[][] {
  return [
    rows.map((row) => row.input.title),
    rows.map((row) => row.input.startsAt.toISOString()),
    rows.map((row) => row.input.startsAtOffset),
    rows.map((row) => row.input.endsAt?.toISOString() ?? null),
    rows.map((row) => row.input.description),
    rows.map((row) => row.input.location),
    rows.map((row) => row.input.url),
    rows.map((row) => row.input.price),
    rows.map((row) => row.input.recurring),
    rows.map((row) => row.input.status),
  ];
}

const UPSERT_BATCH = `INSERT INTO events AS e (account_id, ${COLUMNS.join(", ")})
  SELECT $1::uuid, ${COLUMNS.map((name, index) => `u.${name}::${CASTS[index]}`).join(", ")}
  FROM unnest(${COLUMNS.map((_, index) => `$${index + 2}::${index === 1 || index === 3 ? "timestamptz" : "text"}[]`).join(", ")}) AS u(${COLUMNS.join(", ")})
  ON CONFLICT (account_id, title, starts_at, location) DO UPDATE SET
    starts_at_offset = EXCLUDED.starts_at_offset, ends_at = EXCLUDED.ends_at, description = EXCLUDED.description,
    url = EXCLUDED.url, price = EXCLUDED.price, recurring = EXCLUDED.recurring, status = EXCLUDED.status, updated_at = now()
  RETURNING (e.xmax = 0) AS created`;

export async function importEvents(accountId: string, rows: ValidRow[]): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, updated: 0, failed: 0, problems: [] };
  const unique = lastOccurrences(rows);
  summary.updated += rows.length - unique.length;

  for (let start = 0; start < unique.length; start += IMPORT_BATCH_SIZE) {
    let batch = unique.slice(start, start + IMPORT_BATCH_SIZE);
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const account = await client.query<{ plan: PlanName; event_count: number }>(
        "SELECT plan::text AS plan, event_count FROM accounts WHERE id = $1::uuid",
        [accountId],
      );
      if (!account.rows[0]) throw new Error("account not found");
      const { plan, event_count: count } = account.rows[0];
      const room = Math.max(PLANS[plan].maxEvents - count, 0);
      // Only when the batch could exceed the room does it matter which rows are new.
      if (batch.length > room) {
        // Keep updates of existing events and only as many new events as fit; report the rest.
        const existingKeys = await existingIdentities(client, accountId, batch);
        let allowedNew = room;
        const kept: ValidRow[] = [];
        for (const row of batch) {
          if (existingKeys.has(identityKey(row.input)) || allowedNew-- > 0) kept.push(row);
          else {
            summary.failed++;
            summary.problems.push({ line: row.line, message: `Not imported: the ${PLANS[plan].label} plan's limit of ${PLANS[plan].maxEvents.toLocaleString("en-US")} events is reached.` });
          }
        }
        batch = kept;
      }
      if (batch.length) {
        const result = await client.query<{ created: boolean }>(UPSERT_BATCH, [accountId, ...columnArrays(batch)]);
        for (const row of result.rows) {
          if (row.created) summary.created++;
          else summary.updated++;
        }
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  summary.problems.sort((a, b) => a.line - b.line);
  return summary;
}

async function existingIdentities(client: { query: typeof db.pool.query }, accountId: string, batch: ValidRow[]): Promise<Set<string>> {
  const [titles, starts, , , , locations] = columnArrays(batch);
  const result = await client.query<{ title: string; starts_at: Date; location: string }>(
    `SELECT e.title, e.starts_at, e.location FROM events e
     JOIN unnest($2::text[], $3::timestamptz[], $4::text[]) AS u(title, starts_at, location)
       ON e.title = u.title AND e.starts_at = u.starts_at AND e.location = u.location
     WHERE e.account_id = $1::uuid`,
    [accountId, titles, starts, locations],
  );
  return new Set(result.rows.map((row) => `${row.title}\u0000${row.starts_at.toISOString()}\u0000${row.location}`));
}
