import "server-only";
import { generatePublicId } from "@/lib/ids";
import { recordLeadChanges } from "./changes";
import { defaultSource, type LeadContext, type LeadWriteResult } from "./model";
import type { CreateLeadBody } from "./schemas";
import { LEAD_ID_PREFIX } from "./schemas";
import { inTransaction, LEAD_COLUMNS, leadIdByEmail, toLead, unknownStageProblem, type LeadRow } from "./sql";

export type CreateLeadInput = CreateLeadBody & { conversationId?: string | null };

/*
 * One statement checks the stage (the one named, or the pipeline's first), inserts, and yields to an
 * existing lead with the same email (ON CONFLICT on the per-account unique index), so two concurrent
 * creates with one email make one lead and a 409 for the other.
 */
const INSERT_SQL = `
WITH stage AS (
  SELECT key FROM pipeline_stages WHERE account_id = $2 AND ($9::text IS NULL OR key = $9) ORDER BY position, key LIMIT 1
)
INSERT INTO leads (id, account_id, name, email, phone, company, source, notes, stage, metadata, conversation_id)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, stage.key, $10::jsonb, $11 FROM stage
ON CONFLICT (account_id, email) WHERE email IS NOT NULL DO NOTHING
RETURNING ${LEAD_COLUMNS}`;

/** Input as validated by createLeadSchema (the dashboard and chat validate with the same schema). */
export async function createLead(context: LeadContext, input: CreateLeadInput): Promise<LeadWriteResult> {
  const { accountId } = context;
  return inTransaction(async (client) => {
    const { rows } = await client.query<LeadRow>(INSERT_SQL, [
      generatePublicId(LEAD_ID_PREFIX),
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
    ]);
    if (rows[0]) {
      const lead = toLead(rows[0]);
      await recordLeadChanges(client, context, [{ type: "lead.created", lead }]);
      return { ok: true, lead };
    }
    // Nothing inserted: either the stage is unknown or the email is taken.
    const existing = input.email ? await leadIdByEmail(client, accountId, input.email) : null;
    if (existing) return { ok: false, reason: "exists", leadId: existing };
    return { ok: false, reason: "invalid", details: [await unknownStageProblem(client, accountId)] };
  });
}
