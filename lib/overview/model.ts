/* What the dashboard's Overview shows (docs/overview.md): plain data, read by lib/overview/read.ts. */

export type SourceHealth = {
  id: string;
  /** What the webhook page's links name a source by. */
  publicId: string;
  name: string;
  active: boolean;
  lastDeliveryAt: Date | null;
  lastStatus: number | null;
  lastErrorCode: string | null;
  deliveries24h: number;
  refused24h: number;
  /** Answered only errors for at least an hour (the failure notice's rule, lib/notices/sources.ts). */
  failing: boolean;
};

export type FeedHealth = {
  id: string;
  name: string;
  paused: boolean;
  lastSyncedAt: Date | null;
  /** ok, unchanged, partial, limit or failed. */
  lastResult: string | null;
  lastError: string | null;
  syncs24h: number;
  failed24h: number;
};

export type SubscriptionHealth = {
  id: string;
  url: string;
  status: "active" | "disabled";
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  lastDeliveryAt: Date | null;
  lastError: string | null;
  attempts24h: number;
  succeeded24h: number;
};

export type KeyHealth = {
  active: number;
  usedLast30Days: number;
  expiringSoon: Array<{ id: string; name: string; prefix: string; expiresAt: Date }>;
};

/** One UTC hour of the chart: inbound deliveries and outbound attempts by outcome. */
export type HourBucket = {
  hour: Date;
  accepted: number;
  refused: number;
  succeeded: number;
  failed: number;
};

export type Onboarding = {
  createdKey: boolean;
  connectedWebhook: boolean;
  installedWidget: boolean;
  addedSubscription: boolean;
};

export type Overview = {
  sources: SourceHealth[];
  feeds: FeedHealth[];
  subscriptions: SubscriptionHealth[];
  keys: KeyHealth;
  waitingForPerson: number;
  onboarding: Onboarding;
  /** The last 7 × 24 hours, oldest first, every hour present (zeros where nothing happened). */
  hours: HourBucket[];
  /** The instant the figures were read at. */
  now: Date;
};

export const CHART_HOURS = 7 * 24;
