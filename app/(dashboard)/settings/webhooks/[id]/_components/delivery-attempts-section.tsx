import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
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

const indented = (json: string) => {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
};

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
        body: indented(attempt.payload),
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

const pagerClasses = (enabled: boolean) =>
  buttonClasses("secondary", "sm", enabled ? "" : "pointer-events-none opacity-50");

export function DeliveryAttemptsSection(props: {
  subscriptionId: string;
  attempts: DeliveryAttempt[];
  cursor: string | null;
  nextCursor: string | null;
  timezone: string;
  now: Date;
  canManage: boolean;
  active: boolean;
}) {
  const { timezone, now } = props;
  const rows = rowsOf(props.attempts, timezone, now);
  const empty = props.cursor
    ? "No older attempts."
    : props.active
      ? "No deliveries in the last 30 days. Send a test notification to try the receiver."
      : "No deliveries in the last 30 days.";

  return (
    <section aria-labelledby="delivery-attempts" className="rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
      <div className="flex flex-col gap-3 border-b border-zinc-200 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div>
          <h2 id="delivery-attempts" className="text-base font-semibold text-zinc-900">
            Delivery attempts
          </h2>
          <p className="text-xs text-zinc-500">Newest first, kept for 30 days. Times in {timezone}.</p>
        </div>
        {props.canManage ? (
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
        ) : null}
      </div>
      <div className="space-y-4 p-4 sm:p-6">
        <DeliveryAttemptsTable rows={rows} canManage={props.canManage && props.active} emptyMessage={empty} />
        {props.cursor || props.nextCursor ? (
          <nav aria-label="Delivery attempts pages" className="flex items-center justify-end gap-2">
            <Link
              href="?"
              className={pagerClasses(Boolean(props.cursor))}
              aria-disabled={!props.cursor}
              tabIndex={props.cursor ? undefined : -1}
              scroll={false}
            >
              <span aria-hidden>←</span> Newest
            </Link>
            <Link
              href={props.nextCursor ? `?attempts=${encodeURIComponent(props.nextCursor)}` : "?"}
              className={pagerClasses(Boolean(props.nextCursor))}
              aria-disabled={!props.nextCursor}
              tabIndex={props.nextCursor ? undefined : -1}
              scroll={false}
            >
              Older <span aria-hidden>→</span>
            </Link>
          </nav>
        ) : null}
      </div>
    </section>
  );
}
