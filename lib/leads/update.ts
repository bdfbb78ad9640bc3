import "server-only";
import { db } from "@/lib/platform/db/client";
import { isUniqueViolation } from "@/lib/platform/db/errors";
import { isPublicId } from "@/lib/platform/ids";
import { recordLeadChanges } from "./changes";
import {
  LEAD_NOT_FOUND,
  leadExists,
  leadInvalid,
  type Lead,
  type LeadChange,
  type LeadContext,
  type LeadWriteResult,
} from "./model";
import { AT_LEAST_ONE, LEAD_LIMITS, type MetadataChanges, type UpdateLeadBody } from "./schemas";
import {
  inTransaction,
  LEAD_COLUMNS,
  leadIdByEmail,
  stageExists,
  toLead,
  unknownStageProblem,
  type LeadRow,
  type Queryable,
} from "./sql";

/*
 * Updates read the lead FOR UPDATE inside a transaction, apply the change, check the rules that span
 * fields (one of name/email/phone remains, at most 50 metadata keys after the merge) and write it back,
 * so concurrent PATCHes of one lead apply one after the other without losing a field.
 */

const TEXT_FIELDS = ["name", "email", "phone", "company", "source", "notes"] as const;

async function lockLead(client: Queryable, accountId: string, id: string): Promise<Lead | null> {
  const { rows } = await client.query<LeadRow>(
    `SELECT ${LEAD_COLUMNS} FROM leads WHERE account_id = $1 AND id = $2 FOR UPDATE`,
    [accountId, id],
  );
  return rows[0] ? toLead(rows[0]) : null;
}

function mergeMetadata(
  current: Record<string, string>,
  changes: MetadataChanges | "clear" | undefined,
): Record<string, string> {
  if (changes === undefined) return current;
  if (changes === "clear") return {};
  const merged = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** PATCH: only the fields present change. A stage change also moves stage_changed_at. */
export async function updateLead(context: LeadContext, id: string, body: UpdateLeadBody): Promise<LeadWriteResult> {
  const { accountId } = context;
  if (!isPublicId(id, "lead")) return LEAD_NOT_FOUND;
  try {
    return await inTransaction(async (client) => {
      const current = await lockLead(client, accountId, id);
      if (!current) return LEAD_NOT_FOUND;
      const next: Lead = { ...current, metadata: mergeMetadata(current.metadata, body.metadata) };
      const changed: string[] = [];
      for (const field of TEXT_FIELDS) {
        const value = body[field];
        if (value === undefined) continue;
        next[field] = value;
        if (value !== current[field]) changed.push(field);
      }
      if (JSON.stringify(next.metadata) !== JSON.stringify(current.metadata)) changed.push("metadata");
      if (body.stage !== undefined && body.stage !== current.stage) {
        if (!(await stageExists(client, accountId, body.stage))) {
          return leadInvalid([await unknownStageProblem(client, accountId)]);
        }
        next.stage = body.stage;
        changed.push("stage");
      }
      if (!next.name && !next.email && !next.phone) return leadInvalid([{ field: "name", message: AT_LEAST_ONE }]);
      if (Object.keys(next.metadata).length > LEAD_LIMITS.metadataKeys) {
        return leadInvalid([
          { field: "metadata", message: `A lead holds at most ${LEAD_LIMITS.metadataKeys} metadata keys.` },
        ]);
      }
      if (changed.length === 0) return { ok: true, lead: current } as const;

      const { rows } = await client.query<LeadRow>(
        `UPDATE leads SET name = $3, email = $4, phone = $5, company = $6, source = $7, notes = $8,
           metadata = $9::jsonb,
           stage = $10, updated_at = now(), stage_changed_at = CASE WHEN stage = $10 THEN stage_changed_at
             ELSE now() END
         WHERE account_id = $1 AND id = $2 RETURNING ${LEAD_COLUMNS}`,
        [
          accountId,
          id,
          next.name,
          next.email,
          next.phone,
          next.company,
          next.source,
          next.notes,
          JSON.stringify(next.metadata),
          next.stage,
        ],
      );
      const lead = toLead(rows[0]);
      const changes: LeadChange[] = [{ type: "lead.updated", lead, fields: changed }];
      if (lead.stage !== current.stage)
        changes.push({ type: "lead.stage_changed", lead, previousStage: current.stage });
      await recordLeadChanges(client, context, changes);
      return { ok: true, lead } as const;
    });
  } catch (error) {
    // The only unique index a PATCH can hit is the per-account email.
    if (!isUniqueViolation(error) || !body.email) throw error;
    const existing = await leadIdByEmail(db.pool, accountId, body.email);
    if (existing && existing !== id) return leadExists(existing);
    throw error;
  }
}

/** Moves a lead to another stage of the pipeline. Moving it to the stage it is in changes nothing. */
export async function changeLeadStage(context: LeadContext, id: string, stage: string): Promise<LeadWriteResult> {
  const { accountId } = context;
  if (!isPublicId(id, "lead")) return LEAD_NOT_FOUND;
  return inTransaction(async (client) => {
    const current = await lockLead(client, accountId, id);
    if (!current) return LEAD_NOT_FOUND;
    if (current.stage === stage) return { ok: true, lead: current } as const;
    if (!(await stageExists(client, accountId, stage))) {
      return leadInvalid([await unknownStageProblem(client, accountId)]);
    }
    const { rows } = await client.query<LeadRow>(
      `UPDATE leads SET stage = $3, stage_changed_at = now(), updated_at = now() WHERE account_id = $1 AND id = $2
        RETURNING ${LEAD_COLUMNS}`,
      [accountId, id, stage],
    );
    const lead = toLead(rows[0]);
    await recordLeadChanges(client, context, [{ type: "lead.stage_changed", lead, previousStage: current.stage }]);
    return { ok: true, lead } as const;
  });
}
