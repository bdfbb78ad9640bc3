import { LogPager, LogSection, prettyJson } from "@/components/ui/log-section";
import { LogFilterBar } from "@/components/ui/log-view";
import { MAX_LOG_SEARCH_LENGTH } from "@/lib/platform/log-filter";
import type { DeliveryDetail, DeliveryPage, DeliverySummary } from "@/lib/events-webhook/deliveries";
import { formatInstantInFull, formatShortDayTime, formatWithSeconds } from "@/lib/platform/format/date-time";
import { relativeTime } from "@/lib/platform/format/relative-time";
import { DeliveriesTable, type DeliveryRow, type DeliveryView } from "./deliveries-table";
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

/** What a row and the detail dialog both show of a delivery. */
function summary(delivery: DeliverySummary, timezone: string): DeliveryView {
  return {
    id: delivery.id,
    time: formatWithSeconds(delivery.receivedAt, timezone),
    action: delivery.action,
    status: delivery.status,
    eventTitle: delivery.eventTitle,
    occurrence: delivery.occurrenceAt ? formatShortDayTime(delivery.occurrenceAt, timezone) : null,
    errorCode: delivery.errorCode,
    latencyMs: delivery.latencyMs,
  };
}

function detailView(detail: DeliveryDetail, timezone: string): DeliveryDetailView {
  const headers = detail.headers;
  return {
    ...summary(detail, timezone),
    body: prettyJson(detail.body),
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

export function DeliveriesSection(props: {
  sourceId: string;
  page: DeliveryPage;
  newestId: string | null;
  detail: DeliveryDetail | null;
  params: Params;
  timezone: string;
  now: Date;
  filtered: boolean;
  /** Why the date range is not applied (not a date, To before From), or null. */
  rangeProblem: string | null;
}) {
  const { page, params, timezone, now } = props;
  const rows: DeliveryRow[] = page.items.map((item) => ({
    ...summary(item, timezone),
    full: formatInstantInFull(item.receivedAt, timezone),
    relative: relativeTime(item.receivedAt, now),
    iso: item.receivedAt.toISOString(),
  }));
  const base = { ...params, delivery: undefined };
  const empty = props.filtered
    ? "No deliveries match these filters in the last 30 days."
    : "No deliveries in the last 30 days. Send a test event, or point your system at the endpoint URL.";

  return (
    <LogSection
      id="recent-deliveries"
      title="Recent Deliveries"
      note={`Every request to this endpoint, newest first. Kept for 30 days. Times in ${timezone}.`}
      controls={<DeliveryFilters />}
      className="mt-6"
    >
      <LogFilterBar
        id="deliveries"
        searchLabel="Search deliveries"
        placeholder="Title, error code or status (e.g. 401)"
        maxLength={MAX_LOG_SEARCH_LENGTH}
        reset={["cursor", "dir", "delivery"]}
        problem={props.rangeProblem}
      />
      <NewDeliveriesNotice
        sourceId={props.sourceId}
        newestId={props.newestId}
        newestHref={href(base, { cursor: undefined, dir: undefined })}
      />
      <DeliveriesTable rows={rows} emptyMessage={empty} />
      <LogPager
        label="Deliveries pages"
        back={{
          href: href(base, { cursor: page.newerCursor ?? undefined, dir: "newer" }),
          enabled: !!page.newerCursor,
        }}
        backText="Newer"
        older={{
          href: href(base, { cursor: page.olderCursor ?? undefined, dir: "older" }),
          enabled: !!page.olderCursor,
        }}
      />
      {props.detail ? (
        <DeliveryDetailDialog delivery={detailView(props.detail, timezone)} closeHref={href(base, {})} />
      ) : null}
    </LogSection>
  );
}
