import type { AuditAction } from "./record";

/** How each recorded action reads in Settings → Audit log. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "api_key.created": "Created API key",
  "api_key.revoked": "Revoked API key",
  "webhook_source.created": "Created webhook source",
  "webhook_source.activated": "Activated webhook source",
  "webhook_source.deactivated": "Deactivated webhook source",
  "webhook_source.secret_rotated": "Rotated signing secret",
  "webhook_source.updated": "Updated webhook source",
  "webhook_source.secret_revealed": "Revealed signing secret",
  "webhook_source.failing": "Webhook source answered only errors for an hour",
  "event.deleted": "Deleted event",
  "event.occurrence_cancelled": "Cancelled an occurrence",
  "event.occurrence_deleted": "Deleted an occurrence",
  "event.occurrence_restored": "Restored an occurrence",
  "events.imported": "Imported events from CSV",
  "calendar_feed.url_revealed": "Viewed calendar feed URL",
  "calendar_feed.rotated": "Rotated calendar feed URL",
  "calendar_feed.added": "Followed a calendar feed",
  "calendar_feed.paused": "Paused a calendar feed",
  "calendar_feed.resumed": "Resumed a calendar feed",
  "calendar_feed.deleted": "Stopped following a calendar feed",
  "leads.imported": "Imported leads from CSV",
  "lead.deleted": "Deleted lead",
  "lead.stage_changed": "Moved lead to another stage",
  "pipeline.stage_added": "Added pipeline stage",
  "pipeline.stage_renamed": "Renamed pipeline stage",
  "pipeline.stages_reordered": "Reordered pipeline stages",
  "pipeline.stage_removed": "Removed pipeline stage",
  "webhook_subscription.created": "Created webhook subscription",
  "webhook_subscription.updated": "Updated webhook subscription",
  "webhook_subscription.disabled": "Disabled webhook subscription",
  "webhook_subscription.enabled": "Enabled webhook subscription",
  "webhook_subscription.deleted": "Deleted webhook subscription",
  "webhook_subscription.secret_rotated": "Rotated webhook subscription secret",
  "webhook_subscription.secret_revealed": "Revealed webhook subscription secret",
  "chat_widget.updated": "Changed chat widget settings",
  "conversation.closed": "Closed conversation",
  "conversation.lead_linked": "Linked conversation to lead",
  "account.timezone_changed": "Changed time zone",
};

/** Removals read red in the log; everything else neutral-indigo. */
export function auditActionTone(action: string): "red" | "indigo" {
  return /\.(revoked|deactivated|deleted|occurrence_deleted|stage_removed)$/.test(action) ? "red" : "indigo";
}

export function describeAuditAction(action: string): string {
  return AUDIT_ACTION_LABELS[action as AuditAction] ?? action;
}

/** A short secondary line for the target, from what the entry recorded (never a secret). */
export function describeAuditTarget(entry: { targetType: string; metadata: Record<string, unknown> }): string | null {
  const { prefix, last4, from, to, previousLabel } = entry.metadata;
  if (entry.targetType === "api_key" && typeof prefix === "string" && typeof last4 === "string")
    return `${prefix}…${last4}`;
  if (typeof from === "string" && typeof to === "string") return `${from} → ${to}`;
  if (typeof previousLabel === "string") return `was “${previousLabel}”`;
  const { occurrence } = entry.metadata;
  if (entry.targetType === "event" && typeof occurrence === "string") return `occurrence ${occurrence}`;
  const { lead } = entry.metadata;
  if (entry.targetType === "conversation" && typeof lead === "string") return `to lead ${lead}`;
  const { created, updated, failed } = entry.metadata;
  if (typeof created === "number" && typeof updated === "number" && typeof failed === "number") {
    return (
      `${created.toLocaleString("en-US")} created, ${updated.toLocaleString("en-US")} updated, ` +
      `${failed.toLocaleString("en-US")} failed`
    );
  }
  return null;
}
