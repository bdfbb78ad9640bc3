import "server-only";
import { emitNotifications } from "@/lib/outbound/emit";
import { auditLeadChanges } from "./audit";
import { serializeLead, type LeadChange, type LeadContext } from "./model";
import type { Queryable } from "./sql";

/*
 * Where a lead write announces itself. Every update and stage change (and the CSV import) calls this
 * inside its own transaction (a single create writes its lead.created in its insert statement,
 * lib/leads/create.ts), so its outbound notifications (lead.created, lead.updated,
 * lead.stage_changed with previous_stage) commit together with the change or not at all. `data` is the
 * lead as the public API returns it. Dashboard stage moves are
 * also audited here (lib/leads/audit.ts).
 */

export async function recordLeadChanges(client: Queryable, context: LeadContext, changes: LeadChange[]): Promise<void> {
  await auditLeadChanges(client, context, changes);
  await emitNotifications(
    client,
    context.accountId,
    changes.map((change) => ({
      type: change.type,
      data:
        change.type === "lead.stage_changed"
          ? { ...serializeLead(change.lead), previous_stage: change.previousStage }
          : serializeLead(change.lead),
    })),
  );
}
