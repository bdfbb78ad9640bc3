import type { FeedHealth, KeyHealth, SourceHealth, SubscriptionHealth } from "@/lib/overview/model";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { relativeTime } from "@/lib/platform/format/relative-time";

/* The Overview's cards in words: each with its state, its facts, and the page that fixes a problem. */

export type CardTone = "healthy" | "idle" | "problem" | "off";

export type Card = {
  key: string;
  title: string;
  tone: CardTone;
  state: string;
  facts: string[];
  /** The page to open: the fix when there is a problem, the details otherwise. */
  link: { href: string; label: string };
};

const percent = (part: number, whole: number) => `${Math.round((part / whole) * 1000) / 10}%`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** "Error rate, 24 hours: 2.5% (1 of 40 deliveries)" */
const rate = (label: string, part: number, whole: number, unit: string, units?: string) =>
  `${label}, 24 hours: ${percent(part, whole)} (${part} of ${plural(whole, unit, units)})`;

export function sourceCard(source: SourceHealth, now: Date): Card {
  const href = `/knowledge/events/webhook?source=${encodeURIComponent(source.publicId)}`;
  const facts = [
    source.lastDeliveryAt
      ? `Last delivery ${relativeTime(source.lastDeliveryAt, now)}: ` +
        [source.lastStatus, source.lastErrorCode].filter(Boolean).join(" ")
      : "No delivery yet",
    source.deliveries24h > 0
      ? rate("Error rate", source.refused24h, source.deliveries24h, "delivery", "deliveries")
      : "No deliveries in the last 24 hours",
  ];
  const base = { key: source.id, title: source.name, facts };
  if (!source.active) return { ...base, tone: "off", state: "Inactive", link: { href, label: "Source settings" } };
  if (source.failing)
    return {
      ...base,
      tone: "problem",
      state: "Answering only errors for over an hour",
      link: { href: `${href}&status=4xx`, label: "See the refused deliveries" },
    };
  if (!source.lastDeliveryAt)
    return { ...base, tone: "idle", state: "Waiting for a first delivery", link: { href, label: "Connect it" } };
  return { ...base, tone: "healthy", state: "Receiving", link: { href, label: "Deliveries" } };
}

export function feedCard(feed: FeedHealth, now: Date): Card {
  const href = "/knowledge/events/calendar-feeds";
  const facts = [
    feed.lastSyncedAt
      ? `Last sync ${relativeTime(feed.lastSyncedAt, now)}: ${feed.lastResult ?? "unknown"}`
      : "Not synced yet",
    feed.syncs24h > 0 ? rate("Error rate", feed.failed24h, feed.syncs24h, "sync") : "No syncs in the last 24 hours",
  ];
  const base = { key: feed.id, title: feed.name, facts };
  if (feed.paused) return { ...base, tone: "off", state: "Paused", link: { href, label: "Feed settings" } };
  if (feed.lastResult === "failed")
    return {
      ...base,
      tone: "problem",
      state: feed.lastError ?? "The last sync failed",
      link: { href, label: "Fix the feed" },
    };
  return {
    ...base,
    tone: feed.lastSyncedAt ? "healthy" : "idle",
    state: "Syncing",
    link: { href, label: "Feed details" },
  };
}

export function subscriptionCard(subscription: SubscriptionHealth, now: Date, timeZone: string): Card {
  const href = `/settings/webhooks/${encodeURIComponent(subscription.id)}`;
  const attemptsLink = { href: `${href}#delivery-attempts`, label: "Delivery attempts" };
  const facts = [
    subscription.attempts24h > 0
      ? rate("Success rate", subscription.succeeded24h, subscription.attempts24h, "attempt")
      : "No attempts in the last 24 hours",
    subscription.lastDeliveryAt ? `Last attempt ${relativeTime(subscription.lastDeliveryAt, now)}` : "No attempt yet",
  ];
  const base = { key: subscription.id, title: displayUrl(subscription.url), facts };
  if (subscription.status === "disabled") {
    const when = subscription.disabledAt ? ` on ${formatDateTime(subscription.disabledAt, timeZone)}` : "";
    return {
      ...base,
      tone: "problem",
      state: `Disabled${when} because ${lowerFirst(subscription.disabledReason ?? "it was disabled by hand.")}`,
      link: attemptsLink,
    };
  }
  if (subscription.failingSince)
    return {
      ...base,
      tone: "problem",
      state: [`Failing since ${formatDateTime(subscription.failingSince, timeZone)}`, subscription.lastError]
        .filter(Boolean)
        .join(": "),
      link: attemptsLink,
    };
  return { ...base, tone: subscription.lastDeliveryAt ? "healthy" : "idle", state: "Delivering", link: attemptsLink };
}

export function keyFacts(keys: KeyHealth, timeZone: string) {
  return {
    summary: `${plural(keys.active, "active key")}, ${keys.usedLast30Days} used in the last 30 days`,
    expiring: keys.expiringSoon.map(
      (key) => `${key.name} (${key.prefix}…) expires on ${formatDateTime(key.expiresAt, timeZone)}`,
    ),
  };
}

export function waitingText(waiting: number): string {
  if (waiting === 0) return "No visitor is waiting for a person.";
  return waiting === 1 ? "1 visitor waits for a person." : `${waiting} visitors wait for a person.`;
}

/** Origin and path: a hook URL's query often carries its token. */
function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.host}${url.pathname}`;
  } catch {
    return raw;
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
