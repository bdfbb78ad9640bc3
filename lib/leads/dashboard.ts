import "server-only";
import { db } from "@/lib/platform/db/client";
import { isPublicId } from "@/lib/platform/ids";
import { encodeCursor, tryDecodeCursor } from "@/lib/platform/pagination/keyset";
import type { Lead } from "./model";
import { listLeads } from "./read";
import { readLeadFilters } from "./filters";
import { LEAD_CURSOR, type LeadCursor } from "./schemas";
import { LEAD_COLUMNS, toLead, type LeadRow } from "./sql";

/*
 * The dashboard's reads of leads: the table pages both ways (Previous / Next) over the same keyset as
 * the public list, and the board reads the newest leads of every stage in one statement.
 */

export type LeadsTablePage = { leads: Lead[]; prevCursor: string | null; nextCursor: string | null };

function cursorOf(lead: Lead): string {
  return encodeCursor(LEAD_CURSOR.tag, [lead.createdAt, lead.id]);
}

/** A cursor this module issued, or null (then the first page is shown). */
function readCursor(text: string | undefined): LeadCursor | null {
  const values = tryDecodeCursor(text, LEAD_CURSOR.tag, LEAD_CURSOR.parts);
  if (!values || !isPublicId(values[1], "lead")) return null;
  return { createdAt: values[0], id: values[1] };
}

export type LeadsTableQuery = { q?: string; stage?: string; cursor?: string; dir?: "next" | "prev"; limit: number };

/**
 * Newest first. `dir=prev` walks back up from the cursor (the first row of the page shown before).
 * Filters the API's list would refuse are dropped (the page says so, from readLeadFilters).
 */
export async function listLeadsTable(accountId: string, query: LeadsTableQuery): Promise<LeadsTablePage> {
  const cursor = readCursor(query.cursor);
  const { filters } = readLeadFilters(query);
  if (cursor && query.dir === "prev") {
    const page = await listLeads(accountId, { ...filters, limit: query.limit, order: "asc", cursor, from: "replica" });
    const leads = [...page.data].reverse();
    // Back at the top: the first page, exactly as a fresh visit shows it.
    if (!page.hasMore) return listLeadsTable(accountId, { ...query, cursor: undefined, dir: undefined });
    return {
      leads,
      prevCursor: leads[0] ? cursorOf(leads[0]) : null,
      nextCursor: leads.length ? cursorOf(leads[leads.length - 1]) : null,
    };
  }
  const page = await listLeads(accountId, { ...filters, limit: query.limit, order: "desc", cursor, from: "replica" });
  const leads = page.data;
  return { leads, prevCursor: cursor && leads[0] ? cursorOf(leads[0]) : null, nextCursor: page.nextCursor };
}

/** Whether the account has any lead at all (the empty state), an index probe. */
export async function hasLeads(accountId: string): Promise<boolean> {
  const { rowCount } = await db.replica.query("SELECT 1 FROM leads WHERE account_id = $1 LIMIT 1", [accountId]);
  return (rowCount ?? 0) > 0;
}

export type BoardColumn = { key: string; label: string; leads: Lead[]; hasMore: boolean };

/** Every stage in order with its newest `perStage` leads: one index range per stage, one round trip. */
export async function readBoard(accountId: string, perStage = 50): Promise<BoardColumn[]> {
  const { rows } = await db.replica.query<
    { stage_key: string; stage_label: string; position: number } & Partial<LeadRow>
  >(
    `SELECT s.key AS stage_key, s.label AS stage_label, s.position, l.*
     FROM pipeline_stages s
     LEFT JOIN LATERAL (
       SELECT ${LEAD_COLUMNS} FROM leads WHERE account_id = $1 AND stage = s.key ORDER BY created_at DESC, id DESC
         LIMIT $2
     ) l ON true
     WHERE s.account_id = $1
     ORDER BY s.position, s.key, l.created_at DESC, l.id DESC`,
    [accountId, perStage + 1],
  );
  const columns: BoardColumn[] = [];
  for (const row of rows) {
    let column = columns[columns.length - 1];
    if (!column || column.key !== row.stage_key) {
      column = { key: row.stage_key, label: row.stage_label, leads: [], hasMore: false };
      columns.push(column);
    }
    if (!row.id) continue;
    if (column.leads.length === perStage) column.hasMore = true;
    else column.leads.push(toLead(row as LeadRow));
  }
  return columns;
}
