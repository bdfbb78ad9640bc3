import "server-only";
import { emitNotifications } from "@/lib/outbound/emit";
import { auditLeadChanges } from "./audit";
import { serializeLead, type Lead, type LeadContext } from "./model";
import type { Queryable } from "./sql";

/*
 * The one place where a lead write announces itself. Every create, update and stage change calls this
 * inside its own transaction, so its outbound notifications (lead.created, lead.updated,
 * lead.stage_changed with previous_stage) commit together with the change or not at all. `data` is the
 * lead as the public API returns it. Dashboard stage moves are
 * also audited here (lib/leads/audit.ts).
 */

export type LeadChange =
  | { type: "lead.created"; lead: Lead }
  | { type: "lead.updated"; lead: Lead; fields: string[] }
  | { type: "lead.stage_changed"; lead: Lead; previousStage: string };

export async function recordLeadChanges(client: Queryable, context: LeadContext, changes: LeadChange[]): Promise<void> {
  await auditLeadChanges(client, context, changes);
  await emitNotifications(
    client,
    context.accountId,
    changes.map((change) => ({
      type: change.type,
      data: change.type === "lead.stage_changed" ? { ...serializeLead(change.lead), previous_stage: change.previousStage } : serializeLead(change.lead),
    })),
  );
}
