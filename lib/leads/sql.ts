import "server-only";
import type { Queryable } from "@/lib/platform/db/transaction";
import type { Lead } from "./model";
import type { PipelineStage } from "./pipeline-rules";

export { inTransaction, type Queryable } from "@/lib/platform/db/transaction";

/* Shared SQL pieces of the leads domain. Hot paths use the pg pool directly (no ORM per request). */

export const LEAD_COLUMNS =
  `id, name, email, phone, company, source, stage, notes, metadata, conversation_id, created_at, updated_at, ` +
  `stage_changed_at`;

/**
 * serializeLead (model.ts) in SQL, over a row `alias` with LEAD_COLUMNS: for statements that write a
 * lead and its notification at once. Timestamps are stored to the millisecond, so outbound_iso_time
 * writes exactly what toISOString writes. The lead.created payload test compares the two.
 */
export const leadJsonSql = (alias: string) => `jsonb_build_object(
    'id', ${alias}.id, 'name', ${alias}.name, 'email', ${alias}.email, 'phone', ${alias}.phone,
    'company', ${alias}.company,
    'source', ${alias}.source, 'stage', ${alias}.stage, 'notes', ${alias}.notes, 'metadata', ${alias}.metadata,
    'conversation_id', ${alias}.conversation_id, 'created_at', outbound_iso_time(${alias}.created_at),
    'updated_at', outbound_iso_time(${alias}.updated_at),
    'stage_changed_at', outbound_iso_time(${alias}.stage_changed_at))`;

/** A leads row as LEAD_COLUMNS reads it: the Lead, with the column names of its two-word fields. */
export type LeadRow = Omit<Lead, "conversationId" | "createdAt" | "updatedAt" | "stageChangedAt"> & {
  conversation_id: string | null;
  created_at: Date;
  updated_at: Date;
  stage_changed_at: Date;
};

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    source: row.source,
    stage: row.stage,
    notes: row.notes,
    metadata: row.metadata ?? {},
    conversationId: row.conversation_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    stageChangedAt: row.stage_changed_at,
  };
}

/**
 * Whether a lead may be moved into stage `key`. Takes the account's pipeline lock, shared, until the
 * transaction ends, so the stage cannot be removed before the lead is written (removePipelineStage in
 * pipeline.ts); call it inside the transaction that writes the lead.
 */
export async function stageExists(client: Queryable, accountId: string, key: string): Promise<boolean> {
  const { rows } = await client.query<{ key: string | null }>(
    "SELECT lead_stage_for_write($1::uuid, $2::text) AS key",
    [accountId, key],
  );
  return rows[0]?.key === key;
}

/**
 * The account's pipeline stages in display order: the one stage lookup (the board and the CSV import
 * join pipeline_stages inside their own statements). `lock` takes the rows FOR UPDATE, as pipeline edits do.
 */
export async function readStages(client: Queryable, accountId: string, lock = false): Promise<PipelineStage[]> {
  const { rows } = await client.query<PipelineStage>(
    `SELECT key, label, position FROM pipeline_stages WHERE account_id = $1
      ORDER BY position, key${lock ? " FOR UPDATE" : ""}`,
    [accountId],
  );
  return rows;
}

export async function stageKeys(client: Queryable, accountId: string): Promise<string[]> {
  return (await readStages(client, accountId)).map((stage) => stage.key);
}

export async function unknownStageProblem(client: Queryable, accountId: string) {
  const keys = await stageKeys(client, accountId);
  return {
    field: "stage",
    message: keys.length ? `Unknown stage. Use one of: ${keys.join(", ")}.` : "The pipeline has no stages.",
  };
}

export async function leadIdByEmail(client: Queryable, accountId: string, email: string): Promise<string | null> {
  const { rows } = await client.query<{ id: string }>("SELECT id FROM leads WHERE account_id = $1 AND email = $2", [
    accountId,
    email,
  ]);
  return rows[0]?.id ?? null;
}
