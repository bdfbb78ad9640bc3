import "server-only";
import { newPublicId } from "@/lib/platform/ids";
import { db } from "@/lib/platform/db/client";
import { emitMessagesCte } from "@/lib/outbound/sql";
import { defaultSource, leadExists, leadInvalid, type LeadContext, type LeadWriteResult } from "./model";
import type { CreateLeadBody } from "./schemas";
import { LEAD_COLUMNS, leadIdByEmail, leadJsonSql, toLead, unknownStageProblem, type LeadRow } from "./sql";

export type CreateLeadInput = CreateLeadBody & { conversationId?: string | null };

/*
 * One statement, so a create is one round trip and atomic without BEGIN/COMMIT: it checks the stage (the
 * one named, or the pipeline's first) under the account's pipeline lock (lead_stage_for_write, see
 * removePipelineStage in lib/leads/pipeline.ts), inserts, yields to an existing lead with the same email (ON
 * CONFLICT on the per-account unique index, so two concurrent creates with one email make one lead and a
 * 409 for the other), and writes the lead.created notification to the outbox from the inserted row, so
 * the notification commits with the lead or not at all. A create records no audit entry
 * (lib/leads/audit.ts audits stage moves only), so this is all recordLeadChanges would do.
 */
const INSERT_SQL = `
WITH stage AS (
  SELECT lead_stage_for_write($2::uuid, $9::text) AS key
), created AS (
  INSERT INTO leads (id, account_id, name, email, phone, company, source, notes, stage, metadata, conversation_id)
  SELECT $1, $2, $3, $4, $5, $6, $7, $8, stage.key, $10::jsonb, $11 FROM stage WHERE stage.key IS NOT NULL
  ON CONFLICT (account_id, email) WHERE email IS NOT NULL DO NOTHING
  RETURNING ${LEAD_COLUMNS}
), ${emitMessagesCte(
  "notified",
  `SELECT $2::uuid AS account_id, 'lead.created' AS type, ${leadJsonSql("created")}
  AS data FROM created`,
)}
SELECT ${LEAD_COLUMNS} FROM created`;

/** Input as validated by createLeadSchema (the dashboard and chat validate with the same schema). */
export async function createLead(context: LeadContext, input: CreateLeadInput): Promise<LeadWriteResult> {
  const { accountId } = context;
  const { rows } = await db.pool.query<LeadRow>({
    // Named: parsed and planned once per connection.
    name: "lead-create",
    text: INSERT_SQL,
    values: [
      newPublicId("lead"),
      accountId,
      input.name,
      input.email,
      input.phone,
      input.company,
      input.source ?? defaultSource(context.actor),
      input.notes,
      input.stage,
      JSON.stringify(input.metadata),
      input.conversationId ?? null,
    ],
  });
  if (rows[0]) return { ok: true, lead: toLead(rows[0]) };
  // Nothing inserted: either the stage is unknown or the email is taken.
  const existing = input.email ? await leadIdByEmail(db.pool, accountId, input.email) : null;
  if (existing) return leadExists(existing);
  return leadInvalid([await unknownStageProblem(db.pool, accountId)]);
}
