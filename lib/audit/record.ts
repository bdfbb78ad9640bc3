import "server-only";
import { db } from "@/lib/platform/db/client";
import type { Prisma } from "@/lib/platform/db/generated/client";
import { sql, type Sql } from "@/lib/platform/db/sql";

export type AuditAction =
  | "api_key.created"
  | "api_key.revoked"
  | "webhook_source.created"
  | "webhook_source.activated"
  | "webhook_source.deactivated"
  | "webhook_source.secret_rotated"
  | "webhook_source.updated"
  | "webhook_source.secret_revealed"
  | "webhook_source.failing"
  | "event.deleted"
  | "event.occurrence_cancelled"
  | "event.occurrence_deleted"
  | "event.occurrence_restored"
  | "events.imported"
  | "calendar_feed.url_revealed"
  | "calendar_feed.rotated"
  | "calendar_feed.added"
  | "calendar_feed.paused"
  | "calendar_feed.resumed"
  | "calendar_feed.deleted"
  | "leads.imported"
  | "lead.deleted"
  | "lead.stage_changed"
  | "pipeline.stage_added"
  | "pipeline.stage_renamed"
  | "pipeline.stages_reordered"
  | "pipeline.stage_removed"
  | "webhook_subscription.created"
  | "webhook_subscription.updated"
  | "webhook_subscription.disabled"
  | "webhook_subscription.enabled"
  | "webhook_subscription.deleted"
  | "webhook_subscription.secret_rotated"
  | "webhook_subscription.secret_revealed"
  | "chat_widget.updated"
  | "conversation.closed"
  | "conversation.lead_linked"
  | "account.timezone_changed";

/** Who did it: a user, an API key (public API writes), or null for the system (sign-up, jobs). */
export type AuditActor =
  { id: string; name: string; email: string } | { type: "api_key"; id: string; name: string; prefix: string } | null;

/** For imports the target is the account (an import touches many rows), labelled with the file name. */
export type AuditTargetType =
  | "api_key"
  | "webhook_source"
  | "webhook_subscription"
  | "event"
  | "account"
  | "lead"
  | "pipeline_stage"
  | "pipeline"
  | "chat_widget"
  | "conversation"
  | "calendar_feed";

export type AuditEntry = {
  accountId: string;
  actor: AuditActor;
  action: AuditAction;
  target: { type: AuditTargetType; id: string; label: string };
  metadata?: Prisma.InputJsonValue;
};

/** A connection (or transaction client) of the pg pool: the domains that write with plain SQL. */
type SqlClient = { query: (text: string, values?: unknown[]) => Promise<unknown> };

/*
 * One insert for both kinds of writer (docs/architecture.md, "Data access"): Prisma writers run it on
 * their Prisma transaction, SQL writers on their pg transaction client, so an entry always commits with
 * its change. The actor is either known (id and label) or named by user id only: then the label (name
 * and email at the time) is read in the same statement, and "System" when there is no such user.
 */
function insertAudit(
  entry: Omit<AuditEntry, "actor" | "metadata"> & { metadata?: unknown },
  actor: { id: string | null; label: string | null; lookupUserId: string | null },
): Sql {
  return sql`INSERT INTO audit_log (account_id, actor_id, actor_label, action, target_type, target_id, target_label,
    metadata)
    SELECT ${entry.accountId}::uuid, coalesce(${actor.id}::uuid, u.id),
      coalesce(${actor.label}::text, u.name || ' <' || u.email || '>', 'System'),
      ${entry.action}::text, ${entry.target.type}::text, ${entry.target.id}::text, ${entry.target.label}::text,
      ${JSON.stringify(entry.metadata ?? {})}::jsonb
    FROM (SELECT 1) AS one LEFT JOIN users u ON u.id = ${actor.lookupUserId}::uuid`;
}

/**
 * Records who did what. Pass the transaction that makes the change, so the change and its audit entry
 * commit or roll back together.
 */
export async function recordAudit(entry: AuditEntry, tx: Prisma.TransactionClient = db.prisma): Promise<void> {
  const actor = {
    // actor_id names a user; an API key is named in the label (its id stays in the entry's metadata).
    id: entry.actor && !("type" in entry.actor) ? entry.actor.id : null,
    label: actorLabel(entry.actor),
    lookupUserId: null,
  };
  const statement = insertAudit(entry, actor);
  await tx.$executeRawUnsafe(statement.text, ...statement.values);
}

/**
 * recordAudit for domains that write through the pg pool (leads, pipeline, conversations): the entry is
 * inserted on the caller's transaction client, so it commits with the change. The actor is named by
 * user id; no user id: the entry says "System".
 */
export async function recordAuditSql(
  client: SqlClient,
  entry: Omit<AuditEntry, "actor" | "metadata"> & { actorUserId: string | null; metadata?: Record<string, unknown> },
): Promise<void> {
  const statement = insertAudit(entry, { id: null, label: null, lookupUserId: entry.actorUserId });
  await client.query(statement.text, statement.values);
}

function actorLabel(actor: AuditActor): string {
  if (!actor) return "System";
  if ("type" in actor) return `API key "${actor.name}" (${actor.prefix}…)`;
  return `${actor.name} <${actor.email}>`;
}
