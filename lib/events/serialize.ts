import { formatWithOffset } from "./datetime";
import { nextOccurrence } from "./occurrences";
import type { EventRecord } from "./sql";

/** What next_occurrence_at depends on beyond the event: the account's zone, the time, removed occurrences. */
export type OccurrenceContext = { timeZone: string; at: Date; exceptions?: ReadonlySet<number> };

/*
 * A calendar event as outbound notifications (event.created, …) carry it: start and end in the offset
 * their sender wrote, as the dashboard and the CSV export show them; created_at, updated_at and
 * next_occurrence_at as UTC instants. next_occurrence_at is the start of the occurrence that has not
 * ended at the change (lib/events/occurrences.ts), null when none is left or the event is cancelled.
 * The SQL function outbound_event_data (migrations outbound_deliveries and
 * next_occurrence_in_notifications) builds the same object inside the writers' statements; tests keep
 * the two equal.
 */
export function serializeEvent(event: EventRecord, context: OccurrenceContext) {
  const next =
    event.status === "cancelled"
      ? null
      : nextOccurrence({ ...event, timeZone: context.timeZone, exceptions: context.exceptions }, context.at);
  return {
    id: event.id,
    title: event.title,
    starts_at: formatWithOffset(event.startsAt, event.startsAtOffset),
    ends_at: event.endsAt ? formatWithOffset(event.endsAt, event.startsAtOffset) : null,
    description: event.description,
    location: event.location,
    url: event.url,
    price: event.price,
    recurring: event.recurring,
    status: event.status,
    next_occurrence_at: next ? next.startsAt.toISOString() : null,
    created_at: event.createdAt.toISOString(),
    updated_at: event.updatedAt.toISOString(),
  };
}

export type NotificationEvent = ReturnType<typeof serializeEvent>;
