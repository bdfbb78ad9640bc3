import { ALL_EVENT_TYPES, EVENT_GROUPS, EVENT_TYPES } from "@/lib/webhook-subscriptions/catalogue";

/*
 * Words for Settings → Webhooks, shared by the server pages and the client forms (no server imports):
 * the event types grouped by resource, a short summary of a subscription's event types, and the
 * subscription's health (healthy, failing, disabled) as a person reads it.
 */

export const GROUP_LABELS: Record<string, { title: string; all: string }> = {
  lead: { title: "Leads", all: "All lead events" },
  conversation: { title: "Conversations", all: "All conversation events" },
  message: { title: "Messages", all: "All message events" },
  event: { title: "Calendar events", all: "All calendar events" },
};

export const EVENT_TYPE_DESCRIPTIONS: Record<string, string> = {
  "lead.created": "A lead was added (API, dashboard or import).",
  "lead.updated": "A lead's details changed.",
  "lead.stage_changed": "A lead moved to another pipeline stage.",
  "conversation.started": "A visitor started a conversation.",
  "conversation.handoff_requested": "The assistant asked for a person to take over.",
  "conversation.closed": "A conversation was closed.",
  "message.created": "A message was sent in a conversation.",
  "event.created": "A calendar event was created.",
  "event.updated": "A calendar event changed.",
  "event.cancelled": "A calendar event was cancelled.",
  "event.deleted": "A calendar event was deleted.",
};

export type EventGroup = { key: string; title: string; all: string; wildcard: string; types: string[] };

export const EVENT_TYPE_GROUPS: EventGroup[] = EVENT_GROUPS.map((group) => ({
  key: group,
  title: GROUP_LABELS[group]?.title ?? group,
  all: GROUP_LABELS[group]?.all ?? `All ${group} events`,
  wildcard: `${group}.*`,
  types: EVENT_TYPES.filter((type) => type.startsWith(`${group}.`)),
}));

/** What a subscription receives, in a few words: "All events", "All lead events", or the types. */
export function eventTypeLabels(eventTypes: readonly string[]): string[] {
  if (eventTypes.includes(ALL_EVENT_TYPES)) return ["All events"];
  return eventTypes.map((type) => {
    const group = EVENT_TYPE_GROUPS.find((candidate) => candidate.wildcard === type);
    return group ? group.all : type;
  });
}

/** The host of a stored (already normalised) URL, for titles; the URL itself when it does not parse. */
export function urlHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export type Health = "healthy" | "failing" | "disabled" | "new";

export function healthOf(subscription: {
  status: "active" | "disabled";
  failingSince: Date | null;
  lastDeliveryAt: Date | null;
}): Health {
  if (subscription.status === "disabled") return "disabled";
  if (subscription.failingSince) return "failing";
  return subscription.lastDeliveryAt ? "healthy" : "new";
}

export const HEALTH_BADGES: Record<Health, { label: string; tone: "green" | "amber" | "neutral" | "indigo" }> = {
  healthy: { label: "Active", tone: "green" },
  new: { label: "Active", tone: "green" },
  failing: { label: "Failing", tone: "amber" },
  disabled: { label: "Disabled", tone: "neutral" },
};
