import "server-only";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

export type AuditAction =
  | "api_key.created"
  | "api_key.revoked"
  | "webhook_source.created"
  | "webhook_source.activated"
  | "webhook_source.deactivated"
  | "webhook_source.secret_rotated"
  | "webhook_source.updated"
  | "webhook_source.secret_revealed"
  | "event.deleted"
  | "events.imported"
  | "webhook_subscription.created"
  | "webhook_subscription.updated"
  | "webhook_subscription.disabled"
  | "webhook_subscription.enabled"
  | "webhook_subscription.deleted"
  | "webhook_subscription.secret_rotated"
  | "webhook_subscription.secret_revealed";

/** Who did it: a user, an API key (public API writes), or null for the system (sign-up, jobs). */
export type AuditActor = { id: string; name: string; email: string } | { type: "api_key"; id: string; name: string; prefix: string } | null;

export type AuditEntry = {
  accountId: string;
  actor: AuditActor;
  action: AuditAction;
  /** For "events.imported" the target is the account (an import touches many events), labelled with the file name. */
  target: { type: "api_key" | "webhook_source" | "webhook_subscription" | "event" | "account"; id: string; label: string };
  metadata?: Prisma.InputJsonValue;
};

/**
 * Records who did what. Pass the transaction that makes the change, so the change and its audit entry
 * commit or roll back together.
 */
export async function recordAudit(entry: AuditEntry, tx: Prisma.TransactionClient = db.prisma): Promise<void> {
  await tx.auditLog.create({
    data: {
      accountId: entry.accountId,
      // actor_id names a user; an API key is named in the label (its id stays in the entry's metadata).
      actorId: entry.actor && !("type" in entry.actor) ? entry.actor.id : null,
      actorLabel: actorLabel(entry.actor),
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      targetLabel: entry.target.label,
      metadata: entry.metadata ?? {},
    },
  });
}

function actorLabel(actor: AuditActor): string {
  if (!actor) return "System";
  if ("type" in actor) return `API key "${actor.name}" (${actor.prefix}…)`;
  return `${actor.name} <${actor.email}>`;
}
