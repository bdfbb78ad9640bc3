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
  | "events.imported";

/** Who did it; null for the system (sign-up, jobs). */
export type AuditActor = { id: string; name: string; email: string } | null;

export type AuditEntry = {
  accountId: string;
  actor: AuditActor;
  action: AuditAction;
  /** For "events.imported" the target is the account (an import touches many events), labelled with the file name. */
  target: { type: "api_key" | "webhook_source" | "event" | "account"; id: string; label: string };
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
      actorId: entry.actor?.id ?? null,
      actorLabel: entry.actor ? `${entry.actor.name} <${entry.actor.email}>` : "System",
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      targetLabel: entry.target.label,
      metadata: entry.metadata ?? {},
    },
  });
}
