import "server-only";
import { db } from "@/lib/platform/db/client";
import { encodeCursor, keysetCondition, keysetPage, type Page } from "@/lib/platform/pagination/keyset";
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
export const SEARCH_EXPRESSION = `(coalesce(name, '') || E'\\n' || coalesce(email, '') || E'\\n' || coalesce(company, ''))`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export function buildListQuery(accountId: string, options: ListLeadsOptions): { text: string; values: unknown[] } {
  const values: unknown[] = [accountId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where = ["account_id = $1"];
  if (options.stage) where.push(`stage = ${param(options.stage)}`);
  if (options.q) {
    where.push(`${SEARCH_EXPRESSION} ILIKE ${param(`%${escapeLike(options.q)}%`)}`);
  }
  if (options.createdAfter) where.push(`created_at > ${param(options.createdAfter)}`);
  if (options.updatedAfter) where.push(`updated_at > ${param(options.updatedAfter)}`);
  const desc = options.order === "desc";
  if (options.cursor) {
    const key = [options.cursor.createdAt, options.cursor.id];
    where.push(
      keysetCondition(
        ["created_at", "id"],
        LEAD_CURSOR.parts,
        key,
        desc ? "descending" : "ascending",
        (value, cast) => `${param(value)}::${cast}`,
      ),
    );
  }
  const direction = desc ? "DESC" : "ASC";
  const text = `SELECT ${LEAD_COLUMNS} FROM leads WHERE ${where.join(" AND ")}
    ORDER BY created_at ${direction}, id ${direction} LIMIT ${param(options.limit + 1)}`;
  return { text, values };
}

export async function listLeads(accountId: string, options: ListLeadsOptions): Promise<Page<Lead>> {
  const { text, values } = buildListQuery(accountId, options);
  const reader = options.from === "replica" ? db.replica : db.pool;
  const { rows } = await reader.query<LeadRow>(text, values);
  return keysetPage(rows.map(toLead), options.limit, (last) =>
    encodeCursor(LEAD_CURSOR.tag, [last.createdAt, last.id]),
  );
}
