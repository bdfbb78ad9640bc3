/*
 * The outbound notification catalogue (docs/outbound-webhooks.md, "Subscriptions"). Pure: the API, the
 * delivery worker and the dashboard all read it. A subscription lists catalogue types, a group wildcard
 * such as "lead.*", or ["*"] for everything, including types added later.
 */

export const EVENT_TYPES = [
  "lead.created",
  "lead.updated",
  "lead.stage_changed",
  "conversation.started",
  "conversation.handoff_requested",
  "conversation.closed",
  "message.created",
  "event.created",
  "event.updated",
  "event.cancelled",
  "event.deleted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const ALL_EVENT_TYPES = "*";

/** "lead", "conversation", "message", "event": the part before the dot, for "<group>.*" wildcards. */
export const EVENT_GROUPS: readonly string[] = [...new Set(EVENT_TYPES.map((type) => type.split(".")[0]))];

const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && TYPES.has(value);
}

/** A value a subscription may list: a catalogue type, "*", or "<group>.*". */
export function isSubscribableType(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (value === ALL_EVENT_TYPES || TYPES.has(value)) return true;
  return value.endsWith(".*") && EVENT_GROUPS.includes(value.slice(0, -2));
}

/** Whether a subscription listing `subscribed` receives a notification of `type`. */
export function matchesEventTypes(subscribed: readonly string[], type: string): boolean {
  for (const entry of subscribed) {
    if (entry === ALL_EVENT_TYPES || entry === type) return true;
    if (entry.endsWith(".*") && type.startsWith(entry.slice(0, -1))) return true;
  }
  return false;
}

/** Duplicates removed, order kept; "*" absorbs everything else. */
export function normaliseEventTypes(types: readonly string[]): string[] {
  if (types.includes(ALL_EVENT_TYPES)) return [ALL_EVENT_TYPES];
  return [...new Set(types)];
}
