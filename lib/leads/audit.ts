import "server-only";
import { recordAuditSql } from "@/lib/audit/record";
import { leadDisplayName } from "./display";
import type { LeadChange, LeadContext } from "./model";
import { readStages, type Queryable } from "./sql";

/*
 * Audit entries for lead changes people make in the dashboard (actor "user"): stage moves. Changes by
 * API keys and the chat are not audited here (they are the outbound notifications' business). Runs on
 * the change's own transaction, through recordLeadChanges.
 */
export async function auditLeadChanges(client: Queryable, context: LeadContext, changes: LeadChange[]): Promise<void> {
  if (context.actor.type !== "user") return;
  for (const change of changes) {
    if (change.type !== "lead.stage_changed") continue;
    const stages = await readStages(client, context.accountId);
    const label = (key: string) => stages.find((stage) => stage.key === key)?.label ?? key;
    await recordAuditSql(client, {
      accountId: context.accountId,
      actorUserId: context.actor.userId,
      action: "lead.stage_changed",
      target: { type: "lead", id: change.lead.id, label: leadDisplayName(change.lead) },
      metadata: {
        from: label(change.previousStage),
        to: label(change.lead.stage),
        fromKey: change.previousStage,
        toKey: change.lead.stage,
      },
    });
  }
}
