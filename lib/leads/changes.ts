import "server-only";
import { auditLeadChanges } from "./audit";
import type { Lead, LeadContext } from "./model";
import type { Queryable } from "./sql";

/*
 * The one place where a lead write announces itself. Every create, update and stage change calls this
 * inside its own transaction, so the outbound notifications (lead.created, lead.updated,
 * lead.stage_changed with previous_stage) can later be written here, committed together with the
 * change or not at all. Today it writes the audit entries of dashboard stage moves (lib/leads/audit.ts).
 */

export type LeadChange =
  | { type: "lead.created"; lead: Lead }
  | { type: "lead.updated"; lead: Lead; fields: string[] }
  | { type: "lead.stage_changed"; lead: Lead; previousStage: string };

export async function recordLeadChanges(client: Queryable, context: LeadContext, changes: LeadChange[]): Promise<void> {
  await auditLeadChanges(client, context, changes);
}
