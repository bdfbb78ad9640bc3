import "server-only";
import { db } from "@/lib/platform/db/client";
import { raw, sql, type Sql } from "@/lib/platform/db/sql";
import { encodeCursor, keysetPage, keysetQuery, type Page } from "@/lib/platform/pagination/keyset";
import { isPublicId } from "@/lib/platform/ids";
import type { Lead } from "./model";
import { LEAD_CURSOR, type LeadCursor, type ListLeadsQuery } from "./schemas";
import { LEAD_COLUMNS, toLead, type LeadRow } from "./sql";

/*
 * Reads, always within one account. Lists page by keyset on (created_at, id), walking the index
 * (account_id, created_at, id) — or (account_id, stage, created_at, id) with a stage filter — in either
 * direction, so page 500 costs what page 1 costs. `q` matches name, email or company by ILIKE '%q%'
 * on one expression that a trigram index covers.
 */

export async function getLead(accountId: string, id: string): Promise<Lead | null> {
  if (!isPublicId(id, "lead")) return null;
  const { rows } = await db.pool.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads WHERE account_id = $1 AND id = $2`, [
    accountId,
    id,
  ]);
  return rows[0] ? toLead(rows[0]) : null;
}

export type ListLeadsOptions = {
  limit: number;
  order: "desc" | "asc";
  cursor: LeadCursor | null;
  q?: string | null;
  stage?: string | null;
  createdAfter?: Date;
  updatedAfter?: Date;
  /** "replica" for dashboard lists and exports, which tolerate replay lag (lib/platform/db/client.ts). */
  from?: "primary" | "replica";
};

/** The list options a parsed query asks for (GET /api/public/leads). */
export function listOptionsOf(query: ListLeadsQuery): ListLeadsOptions {
  const { limit, order, cursor, q, stage, created_after, updated_after } = query;
  return { limit, order, cursor, q, stage, createdAfter: created_after, updatedAfter: updated_after };
}

/** Exactly the expression of the index leads_search_trgm_idx (see the leads migration). */
export const SEARCH_EXPRESSION =
  "(coalesce(name, '') || E'\\n' || coalesce(email, '') || " + "E'\\n' || coalesce(company, ''))";

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export function buildListQuery(accountId: string, options: ListLeadsOptions): Sql {
  const where = [sql`account_id = ${accountId}`];
  if (options.stage) where.push(sql`stage = ${options.stage}`);
  if (options.q) where.push(sql`${raw(SEARCH_EXPRESSION)} ILIKE ${`%${escapeLike(options.q)}%`}`);
  if (options.createdAfter) where.push(sql`created_at > ${options.createdAfter}`);
  if (options.updatedAfter) where.push(sql`updated_at > ${options.updatedAfter}`);
  const cursor = options.cursor ? [options.cursor.createdAt, options.cursor.id] : null;
  return keysetQuery({
    select: sql`SELECT ${raw(LEAD_COLUMNS)} FROM leads`,
    where,
    columns: ["created_at", "id"],
    parts: LEAD_CURSOR.parts,
    cursor,
    direction: options.order === "desc" ? "descending" : "ascending",
    limit: options.limit,
  });
}

export async function listLeads(accountId: string, options: ListLeadsOptions): Promise<Page<Lead>> {
  const query = buildListQuery(accountId, options);
  const reader = options.from === "replica" ? db.replica : db.pool;
  const { rows } = await reader.query<LeadRow>(query.text, query.values);
  return keysetPage(rows.map(toLead), options.limit, (last) =>
    encodeCursor(LEAD_CURSOR.tag, [last.createdAt, last.id]),
  );
}
