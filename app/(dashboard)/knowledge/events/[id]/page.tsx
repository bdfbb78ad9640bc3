import { CalendarCheck } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { BackLink, Card, DetailRow, RecordCard } from "@/components/ui/detail-card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { formatWithOffset } from "@/lib/events/datetime";
import { eventDetail, occurrenceLabel } from "@/lib/events/exceptions";
import { describeRecurrence } from "@/lib/events/occurrences";
import { formatDate, formatDateTime, formatTime } from "@/lib/platform/format/date-time";
import { RemoveOccurrenceButtons, RestoreOccurrenceButton } from "./_components/occurrence-actions";
import { none } from "@/components/ui/none";

export const metadata: Metadata = { title: "Event" };

/*
 * An event's page (docs/recurring-events.md, "Dashboard"): its fields in the account's zone and, for a
 * series, how it repeats, its next occurrences and its exceptions, which owners and admins can remove
 * and restore one by one. Another account's event, or an id that is none, is a 404.
 */

const rowClasses = "flex items-center justify-between gap-3 py-2.5";
const capitalized = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const context = await requireSession();
  const { account } = context;
  const { id } = await params;
  const now = new Date();
  const detail = await eventDetail(account.id, id, account.timezone, now);
  if (!detail) notFound();
  const { event, upcoming, exceptions } = detail;
  const manager = canManage(context);
  const zone = account.timezone;
  const series = event.recurring !== "";
  const repeats = series ? describeRecurrence({ ...event, timeZone: zone }) : "";
  const when = (date: Date) => <time dateTime={date.toISOString()}>{formatDateTime(date, zone)}</time>;
  const label = (date: Date) => occurrenceLabel(date, zone, now);

  return (
    <>
      <BackLink href="/knowledge/events">All events</BackLink>
      <PageHeader
        title={event.title}
        description={
          series ? `Repeats ${event.recurring}: ${repeats} (${zone}).` : `${formatDateTime(event.startsAt, zone)}.`
        }
        actions={
          <Badge tone={event.status === "cancelled" ? "red" : "green"} dot>
            {event.status}
          </Badge>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card id="event-details" title="Details">
            <dl className="mt-2 divide-y divide-zinc-100">
              <DetailRow term={series ? "First occurrence" : "Starts"}>
                {when(event.startsAt)}
                <span className="block text-xs text-zinc-500">
                  sent as {formatWithOffset(event.startsAt, event.startsAtOffset)}
                </span>
              </DetailRow>
              <DetailRow term="Ends">{event.endsAt ? when(event.endsAt) : none}</DetailRow>
              <DetailRow term="Repeats">
                {series ? `${capitalized(event.recurring)}, ${repeats}` : "Does not repeat"}
              </DetailRow>
              <DetailRow term="Location">{event.location || none}</DetailRow>
              <DetailRow term="Price">{event.price || none}</DetailRow>
              <DetailRow term="URL">
                {event.url ? (
                  <a
                    href={event.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="break-all text-indigo-600 hover:underline"
                  >
                    {event.url}
                  </a>
                ) : (
                  none
                )}
              </DetailRow>
              <DetailRow term="Status">{event.status === "cancelled" ? "Cancelled" : "Upcoming"}</DetailRow>
              <DetailRow term="Description">
                {event.description ? <span className="whitespace-pre-wrap">{event.description}</span> : none}
              </DetailRow>
            </dl>
          </Card>
          {series ? (
            <Card
              id="event-next"
              title="Next occurrences"
              description={upcoming.length ? `The next ${upcoming.length} that take place, in ${zone}.` : undefined}
            >
              {event.status === "cancelled" ? (
                <p className="mt-3 text-sm text-zinc-600">
                  This series is cancelled: none of its occurrences take place. Set its status back to upcoming from All
                  Events to bring them back.
                </p>
              ) : upcoming.length === 0 ? (
                <p className="mt-3 text-sm text-zinc-600">
                  No later occurrence: the series has run out of dates the product can store.
                </p>
              ) : (
                <ol aria-labelledby="event-next" className="mt-2 divide-y divide-zinc-100">
                  {upcoming.map((occurrence) => {
                    const first = occurrence.startsAt.getTime() === event.startsAt.getTime();
                    const start = occurrence.startsAt.toISOString();
                    return (
                      <li key={start} className={rowClasses}>
                        <div className="min-w-0">
                          <time dateTime={start} className="text-sm font-medium text-zinc-900">
                            {label(occurrence.startsAt)}
                          </time>
                          {occurrence.endsAt ? (
                            <span className="ml-2 text-xs whitespace-nowrap text-zinc-500">
                              until {formatTime(occurrence.endsAt, zone)}
                            </span>
                          ) : null}
                        </div>
                        {first ? (
                          <span className="text-right text-xs text-zinc-500">
                            First occurrence: cancelling it cancels the series
                          </span>
                        ) : manager ? (
                          <RemoveOccurrenceButtons
                            eventId={event.id}
                            title={event.title}
                            occursAt={start}
                            label={label(occurrence.startsAt)}
                          />
                        ) : null}
                      </li>
                    );
                  })}
                </ol>
              )}
            </Card>
          ) : null}
          {series || exceptions.length ? (
            <Card
              id="event-exceptions"
              title="Exceptions"
              description="Occurrences removed one by one, here or by a cancel or delete from your system's webhook."
            >
              {exceptions.length === 0 ? (
                <EmptyState
                  icon={<CalendarCheck className="size-6" aria-hidden />}
                  title="No exceptions"
                  className="mt-4 py-8"
                >
                  <p>
                    Every occurrence of this series takes place. An occurrence you cancel or delete appears here, and
                    can be restored.
                  </p>
                </EmptyState>
              ) : (
                <ol aria-labelledby="event-exceptions" className="mt-2 divide-y divide-zinc-100">
                  {exceptions.map((exception) => (
                    <li key={exception.occursAt.getTime()} className={rowClasses}>
                      <div className="min-w-0">
                        <p className="flex flex-wrap items-center gap-2">
                          <time
                            dateTime={exception.occursAt.toISOString()}
                            className="text-sm font-medium text-zinc-900"
                          >
                            {label(exception.occursAt)}
                          </time>
                          <Badge tone={exception.kind === "deleted" ? "red" : "amber"}>{exception.kind}</Badge>
                          {exception.occursAt < now ? <Badge tone="neutral">past</Badge> : null}
                        </p>
                        <p className="mt-0.5 text-xs text-zinc-500">Removed {formatDate(exception.removedAt, zone)}</p>
                      </div>
                      {manager ? (
                        <RestoreOccurrenceButton
                          eventId={event.id}
                          occursAt={exception.occursAt.toISOString()}
                          label={label(exception.occursAt)}
                        />
                      ) : null}
                    </li>
                  ))}
                </ol>
              )}
            </Card>
          ) : null}
        </div>
        <aside className="space-y-6">
          <RecordCard noun="Event" record={event} when={when} />
        </aside>
      </div>
    </>
  );
}
