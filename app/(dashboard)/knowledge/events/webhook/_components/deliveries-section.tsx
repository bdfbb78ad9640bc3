import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import type { DeliveryDetail, DeliveryPage } from "@/lib/events-webhook/deliveries";
import { formatInstantInFull, formatShortDayTime, formatWithSeconds } from "@/lib/platform/format/date-time";
import { relativeTime } from "@/lib/platform/format/relative-time";
import { DeliveriesTable, type DeliveryRow } from "./deliveries-table";
import { DeliveryDetailDialog, type DeliveryDetailView } from "./delivery-detail-dialog";
import { DeliveryFilters } from "./delivery-filters";
import { NewDeliveriesNotice } from "./new-deliveries-notice";

type Params = Record<string, string | undefined>;

function href(params: Params, changes: Params): string {
  const next = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, ...changes })) if (value) next.set(key, value);
  const query = next.toString();
  return query ? `?${query}` : "?";
}

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function detailView(detail: DeliveryDetail, timezone: string): DeliveryDetailView {
  const headers = detail.headers;
  return {
    id: detail.id,
    time: formatWithSeconds(detail.receivedAt, timezone),
    action: detail.action,
    status: detail.status,
    eventTitle: detail.eventTitle,
    occurrence: detail.occurrenceAt ? formatShortDayTime(detail.occurrenceAt, timezone) : null,
    errorCode: detail.errorCode,
    latencyMs: detail.latencyMs,
    body: prettyBody(detail.body),
    bodyBytes: detail.bodyBytes,
    bodyTruncated: detail.bodyTruncated,
    headers: [
      ["Content-Type", headers.content_type ?? "(none)"],
      ["User-Agent", headers.user_agent ?? "(none)"],
      ["Content-Length", headers.content_length ?? "(none)"],
      ["X-Service-Timestamp", headers.timestamp ?? "(none)"],
      [
        "X-Service-Signature",
        headers.signature_present
          ? headers.signature_valid === null
            ? "present (not checked)"
            : headers.signature_valid
              ? "present, valid"
              : "present, invalid"
          : "missing",
      ],
    ],
  };
}

const pagerClasses = (enabled: boolean) =>
  buttonClasses("secondary", "sm", enabled ? "" : "pointer-events-none opacity-50");

export function DeliveriesSection(props: {
  sourceId: string;
  page: DeliveryPage;
  newestId: string | null;
  detail: DeliveryDetail | null;
  params: Params;
  timezone: string;
  now: Date;
  filtered: boolean;
}) {
  const { page, params, timezone, now } = props;
  const rows: DeliveryRow[] = page.items.map((item) => ({
    id: item.id,
    time: formatWithSeconds(item.receivedAt, timezone),
    full: formatInstantInFull(item.receivedAt, timezone),
    relative: relativeTime(item.receivedAt, now),
    iso: item.receivedAt.toISOString(),
    action: item.action,
    status: item.status,
    eventTitle: item.eventTitle,
    occurrence: item.occurrenceAt ? formatShortDayTime(item.occurrenceAt, timezone) : null,
    errorCode: item.errorCode,
    latencyMs: item.latencyMs,
  }));
  const base = { ...params, delivery: undefined };
  const empty = props.filtered
    ? "No deliveries match these filters in the last 30 days."
    : "No deliveries in the last 30 days. Send a test event, or point your system at the endpoint URL.";

  return (
    <section aria-labelledby="recent-deliveries" className="mt-6 rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
      <div className="flex flex-col gap-3 border-b border-zinc-200 px-6 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="recent-deliveries" className="text-base font-semibold text-zinc-900">
            Recent Deliveries
          </h2>
          <p className="text-xs text-zinc-500">
            Every request to this endpoint, newest first. Kept for 30 days. Times in {timezone}.
          </p>
        </div>
        <DeliveryFilters />
      </div>
      <div className="space-y-4 p-4 sm:p-6">
        <NewDeliveriesNotice
          sourceId={props.sourceId}
          newestId={props.newestId}
          newestHref={href(base, { cursor: undefined, dir: undefined })}
        />
        <DeliveriesTable rows={rows} emptyMessage={empty} />
        <nav aria-label="Deliveries pages" className="flex items-center justify-end gap-2">
          <Link
            href={href(base, { cursor: page.newerCursor ?? undefined, dir: "newer" })}
            className={pagerClasses(Boolean(page.newerCursor))}
            aria-disabled={!page.newerCursor}
            tabIndex={page.newerCursor ? undefined : -1}
            scroll={false}
          >
            <span aria-hidden>←</span> Newer
          </Link>
          <Link
            href={href(base, { cursor: page.olderCursor ?? undefined, dir: "older" })}
            className={pagerClasses(Boolean(page.olderCursor))}
            aria-disabled={!page.olderCursor}
            tabIndex={page.olderCursor ? undefined : -1}
            scroll={false}
          >
            Older <span aria-hidden>→</span>
          </Link>
        </nav>
      </div>
      {props.detail ? (
        <DeliveryDetailDialog delivery={detailView(props.detail, timezone)} closeHref={href(base, {})} />
      ) : null}
    </section>
  );
}
