import { STATUS_CODES } from "node:http";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { relativeTime } from "@/lib/platform/format/relative-time";
import type { FailureRun } from "@/lib/webhook-subscriptions/failure-run";
import type { Subscription } from "@/lib/webhook-subscriptions/model";
import { healthOf, type Health } from "../view-model";

/*
 * The subscription's state as the notice at the top of its page says it: what is wrong in words a person
 * understands, since when, and what to do about it.
 */

export type HealthNotice = { health: Health; title: string; lines: string[] };

/** "500 Internal Server Error"; just the number for codes without a standard name. */
export function statusText(code: number): string {
  const name = STATUS_CODES[code];
  return name ? `${code} ${name}` : String(code);
}

function failureLine(subscription: Subscription, run: FailureRun | null, timezone: string): string {
  const since = formatDateTime(subscription.failingSince!, timezone);
  const attempts =
    run && run.attempts > 1 ? `on the last ${run.attempts} attempts since ${since}` : `on the last attempt (${since})`;
  if (run?.statusCode != null && (run.statusCode < 200 || run.statusCode >= 300)) {
    const redirect =
      run.statusCode >= 300 && run.statusCode < 400 ? " Redirects are not followed: use the final URL." : "";
    return `The receiver answered ${statusText(run.statusCode)} ${attempts}.${redirect}`;
  }
  const error = run?.error ?? subscription.lastError;
  if (error)
    return run
      ? `${error.replace(/\.$/, "")} (${attempts.replace(/^on the /, "")}).`
      : `${error} Failing since ${since}.`;
  return `Deliveries have failed since ${since}.`;
}

export function healthNotice(
  subscription: Subscription,
  run: FailureRun | null,
  timezone: string,
  now = new Date(),
): HealthNotice {
  const health = healthOf(subscription);
  switch (health) {
    case "disabled":
      return {
        health,
        title: "This subscription is disabled",
        lines: [
          subscription.disabledReason ?? "It was disabled.",
          `${subscription.disabledAt ? `Disabled ${formatDateTime(subscription.disabledAt, timezone)}. ` : ""}` +
            "Nothing is sent while it is disabled, and changes made in the meantime are not delivered later.",
          "Once the receiver accepts notifications again (answers with a 2xx status), " +
            "press Enable: deliveries resume with the next change.",
        ],
      };
    case "failing":
      return {
        health,
        title: "Deliveries are failing",
        lines: [
          failureLine(subscription, run, timezone),
          `Each notification is retried for about 28 hours. If every delivery keeps failing until ` +
            `${formatDateTime(new Date(subscription.failingSince!.getTime() + 5 * 86_400_000), timezone)} ` +
            `(5 days in a row), the subscription is disabled.`,
        ],
      };
    case "healthy":
      return {
        health,
        title: "Delivering",
        lines: [
          `The last notification was delivered ` +
            `${relativeTime(subscription.lastDeliveryAt!, now)} ` +
            `(${formatDateTime(subscription.lastDeliveryAt!, timezone)}).`,
        ],
      };
    default:
      return {
        health,
        title: "Waiting for the first notification",
        lines: [
          "Nothing has been sent yet. A notification goes out as soon as one " +
            "of the chosen events happens in this account.",
        ],
      };
  }
}
