import { formatWithOffset } from "./datetime";
import type { EventRecord } from "./sql";

/*
 * A calendar event as outbound notifications (event.created, …) carry it: start and end in the offset
 * their sender wrote, as the dashboard and the CSV export show them; created_at and updated_at as UTC
 * instants. The SQL function outbound_event_data (migration outbound_deliveries) builds the same object
 * inside the writers' statements; a test keeps the two equal.
 */
export function serializeEvent(event: EventRecord) {
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
    created_at: event.createdAt.toISOString(),
    updated_at: event.updatedAt.toISOString(),
  };
}

export type NotificationEvent = ReturnType<typeof serializeEvent>;
