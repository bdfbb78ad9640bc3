import { CalendarDays, Webhook } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { formatMoment, formatShortDayTime } from "@/lib/platform/format/date-time";
import type { Occurrence } from "@/lib/events/occurrences";
import { nextOccurrences } from "@/lib/events/series";
import { listEvents } from "@/lib/events/list";
import { eventUsage } from "@/lib/events/repository";
import { formatWithOffset } from "@/lib/events/datetime";
import type { EventRecord } from "@/lib/events/sql";
import { toZonedInputValue } from "@/lib/platform/format/zoned-time";
import { CsvImportDialog } from "./_components/csv-import-dialog";
import { EventsTable, type EventRowView } from "./_components/events-table";
import { EventsToolbar } from "./_components/events-toolbar";
import { NewEventButton } from "./_components/new-event-button";
import { hasFilters, listOptionsFrom, type EventSearchParams } from "./filters";
import { CsvExportLink } from "@/components/csv/csv-export-link";

export const metadata: Metadata = { title: "All Events" };

const number = new Intl.NumberFormat("en-US");

/** "Repeats weekly · next Sat 5 Dec, 09:00", or "· no later occurrence" once the series has none left. */
function repeats(event: EventRecord, next: Occurrence | null | undefined, timezone: string): string | null {
  if (!event.recurring) return null;
  // A cancelled series offers no occurrence, as the assistant and the event's page say.
  if (event.status === "cancelled") return `Repeats ${event.recurring} · series cancelled`;
  return (
    `Repeats ${event.recurring} · ` +
    `${next ? `next ${formatShortDayTime(next.startsAt, timezone)}` : "no later occurrence"}`
  );
}

function rowView(event: EventRecord, timezone: string, now: Date, next: Map<string, Occurrence | null>): EventRowView {
  return {
    id: event.id,
    title: event.title,
    starts: formatMoment(event.startsAt, timezone),
    startsOriginal: formatWithOffset(event.startsAt, event.startsAtOffset),
    ends: event.endsAt ? formatMoment(event.endsAt, timezone) : null,
    location: event.location,
    price: event.price,
    recurring: event.recurring,
    repeats: repeats(event, next.get(event.id), timezone),
    status: event.status,
    past: event.recurring ? !next.get(event.id) : event.startsAt < now,
    url: event.url,
    form: {
      title: event.title,
      starts_at: toZonedInputValue(event.startsAt, timezone),
      ends_at: event.endsAt ? toZonedInputValue(event.endsAt, timezone) : "",
      location: event.location,
      price: event.price,
      url: event.url,
      recurring: event.recurring,
      status: event.status,
      description: event.description,
    },
  };
}

function pageHref(params: EventSearchParams, cursor: string | null, dir: "next" | "prev"): string {
  const next = new URLSearchParams(
    Object.entries(params).filter(([key, value]) => value && key !== "cursor" && key !== "dir") as [string, string][],
  );
  if (cursor) {
    next.set("cursor", cursor);
    next.set("dir", dir);
  }
  return `?${next}`;
}

export default async function EventsPage({ searchParams }: { searchParams: Promise<EventSearchParams> }) {
  const { account, ...context } = await requireSession();
  const params = await searchParams;
  const manager = canManage({ account, ...context });
  const now = new Date();
  const [page, usage] = await Promise.all([
    listEvents(account.id, {
      ...listOptionsFrom(params),
      cursor: params.cursor,
      direction: params.dir === "prev" ? "prev" : "next",
      limit: 50,
      now,
    }),
    eventUsage(account.id),
  ]);
  const next = await nextOccurrences(account.id, page.items, account.timezone, now);
  const exportHref = `/knowledge/events/export${pageHref(params, null, "next")}`;
  const actions = (
    <>
      {usage.count > 0 ? <CsvExportLink href={exportHref} /> : null}
      {manager ? <CsvImportDialog /> : null}
      {manager ? <NewEventButton timezone={account.timezone} /> : null}
    </>
  );
  const header = (
    <PageHeader
      title="All Events"
      description={
        <>
          Every event your connected systems pushed into this account. {number.format(usage.count)} of{" "}
          {number.format(usage.limit)} events used on your plan.
        </>
      }
      actions={actions}
    />
  );

  if (usage.count === 0 && !hasFilters(params)) {
    return (
      <>
        {header}
        <EmptyState
          icon={<CalendarDays className="size-6" aria-hidden />}
          title="No events yet"
          action={
            <>
              <Link href="/knowledge/events/webhook" className={buttonClasses("primary")}>
                <Webhook className="size-4" aria-hidden />
                Connect the webhook
              </Link>
              {manager ? <CsvImportDialog /> : null}
            </>
          }
        >
          <p>
            Connect your booking platform or CRM through the signed Events Webhook and events appear here in real time,
            or bring in your existing events with a CSV import.
          </p>
        </EmptyState>
      </>
    );
  }

  const atLimit = usage.count >= usage.limit;
  return (
    <>
      {header}
      {atLimit ? (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          This account has reached its plan&apos;s limit of {number.format(usage.limit)} events: new events from the
          webhook get 403 <code className="font-mono text-xs">plan_limit_reached</code> until you delete events or{" "}
          <Link href="/settings/plan" className="font-medium underline">
            upgrade the plan
          </Link>
          . Updates to existing events still work.
        </p>
      ) : null}
      <div className="space-y-4">
        <EventsToolbar />
        <EventsTable
          rows={page.items.map((event) => rowView(event, account.timezone, now, next))}
          canManage={manager}
          timezone={account.timezone}
          emptyMessage="No events match your search and filters."
        />
        <nav aria-label="Events pages" className="flex items-center justify-between gap-2">
          <p className="text-xs text-zinc-500">
            Times in {account.timezone}. Hover a start time to see the offset it was sent with.
          </p>
          <div className="flex gap-2">
            <Link
              href={pageHref(params, page.prevCursor, "prev")}
              aria-disabled={!page.prevCursor}
              tabIndex={page.prevCursor ? undefined : -1}
              className={buttonClasses("secondary", "sm", page.prevCursor ? "" : "pointer-events-none opacity-50")}
            >
              <span aria-hidden>←</span> Previous
            </Link>
            <Link
              href={pageHref(params, page.nextCursor, "next")}
              aria-disabled={!page.nextCursor}
              tabIndex={page.nextCursor ? undefined : -1}
              className={buttonClasses("secondary", "sm", page.nextCursor ? "" : "pointer-events-none opacity-50")}
            >
              Next <span aria-hidden>→</span>
            </Link>
          </div>
        </nav>
      </div>
    </>
  );
}
