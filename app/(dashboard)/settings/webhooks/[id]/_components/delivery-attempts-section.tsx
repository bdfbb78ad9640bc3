import { LogPager, LogSection, prettyJson } from "@/components/ui/log-section";
import { LogFilterBar } from "@/components/ui/log-view";
import { hasLogFilter, logWindow, MAX_LOG_SEARCH_LENGTH } from "@/lib/platform/log-filter";
import { relativeTime } from "@/lib/platform/format/relative-time";
import { toZonedInputValue } from "@/lib/platform/format/zoned-time";
import type { DeliveryAttempt } from "@/lib/outbound/manage";
import { statusText } from "../health";
import type { AttemptRow } from "./attempt-row";
import { DeliveryAttemptsTable } from "./delivery-attempts-table";
import { ReplayDialog } from "./replay-dialog";
import { TestNotificationButton } from "./test-notification-button";
import { formatInstantInFull, formatWithSeconds } from "@/lib/platform/format/date-time";
import { sentHeaders } from "@/lib/outbound/deliver";

const DAY_MS = 86_400_000;

type Filters = { search?: string; from?: string; to?: string };

/** This page with the log's search and dates kept, at the attempts after `cursor` (the newest without one). */
function pageHref(filters: Filters, cursor: string | null): string {
  const values = { q: filters.search, from: filters.from, to: filters.to, attempts: cursor };
  const next = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) next.set(key, value);
  return `?${next}`;
}

/** "in a few seconds" rather than relativeTime's "just now" for a retry moments away. */
const untilRetry = (at: Date, now: Date) =>
  at.getTime() - now.getTime() < 45_000 ? "in a few seconds" : relativeTime(at, now);

function rowsOf(attempts: DeliveryAttempt[], timezone: string, now: Date): AttemptRow[] {
  const seen = new Set<string>();
  return attempts.map((attempt) => {
    // What happens next belongs to a delivery's newest attempt only.
    const newest = !seen.has(attempt.deliveryId);
    seen.add(attempt.deliveryId);
    const pending = newest && attempt.deliveryStatus === "pending" && attempt.nextAttemptAt;
    return {
      id: attempt.id,
      deliveryId: attempt.deliveryId,
      messageId: attempt.messageId,
      type: attempt.type,
      attempt: attempt.attempt,
      time: formatWithSeconds(attempt.attemptedAt, timezone),
      relative: relativeTime(attempt.attemptedAt, now),
      iso: attempt.attemptedAt.toISOString(),
      full: formatInstantInFull(attempt.attemptedAt, timezone),
      statusCode: attempt.statusCode,
      statusText: attempt.statusCode === null ? null : statusText(attempt.statusCode).replace(/^\d+ ?/, "") || null,
      durationMs: attempt.durationMs,
      responseExcerpt: attempt.responseExcerpt,
      request: {
        headers: sentHeaders(attempt.messageId, new Date(attempt.attemptedAt.getTime() - attempt.durationMs)),
        body: prettyJson(attempt.payload),
        bytes: Buffer.byteLength(attempt.payload),
      },
      error: attempt.error,
      outcome: attempt.outcome,
      nextRetry: pending
        ? { at: formatWithSeconds(attempt.nextAttemptAt!, timezone), relative: untilRetry(attempt.nextAttemptAt!, now) }
        : null,
      canResend: newest && attempt.deliveryStatus === "failed",
    };
  });
}

export function DeliveryAttemptsSection(props: {
  subscriptionId: string;
  attempts: DeliveryAttempt[];
  cursor: string | null;
  nextCursor: string | null;
  /** The URL's search and date range (days in `timezone`), as the page passed them to the list. */
  filters: Filters;
  timezone: string;
  now: Date;
  canManage: boolean;
  active: boolean;
}) {
  const { timezone, now } = props;
  const rows = rowsOf(props.attempts, timezone, now);
  const filtered = hasLogFilter(props.filters);
  const empty = props.cursor
    ? "No older attempts."
    : filtered
      ? "No attempts match this search and date range in the last 30 days."
      : props.active
        ? "No deliveries in the last 30 days. Send a test notification to try the receiver."
        : "No deliveries in the last 30 days.";

  return (
    <LogSection
      id="delivery-attempts"
      title="Delivery attempts"
      note={`Newest first, kept for 30 days. Times in ${timezone}.`}
      controls={
        props.canManage ? (
          <div className="flex shrink-0 flex-wrap gap-2">
            <TestNotificationButton subscriptionId={props.subscriptionId} disabled={!props.active} />
            {props.active ? (
              <ReplayDialog
                subscriptionId={props.subscriptionId}
                timezone={timezone}
                defaultSince={toZonedInputValue(new Date(now.getTime() - DAY_MS), timezone)}
                oldest={toZonedInputValue(new Date(now.getTime() - 30 * DAY_MS), timezone)}
              />
            ) : null}
          </div>
        ) : null
      }
    >
      <LogFilterBar
        id="attempts"
        searchLabel="Search delivery attempts"
        placeholder="Event type, message id or status (e.g. 500)"
        maxLength={MAX_LOG_SEARCH_LENGTH}
        reset={["attempts"]}
        problem={logWindow({ ...props.filters, timeZone: timezone }).problem}
      />
      <DeliveryAttemptsTable rows={rows} canManage={props.canManage && props.active} emptyMessage={empty} />
      {props.cursor || props.nextCursor ? (
        <LogPager
          label="Delivery attempts pages"
          back={{ href: pageHref(props.filters, null), enabled: Boolean(props.cursor) }}
          backText="Newest"
          older={{
            href: pageHref(props.filters, props.nextCursor),
            enabled: Boolean(props.nextCursor),
          }}
        />
      ) : null}
    </LogSection>
  );
}
