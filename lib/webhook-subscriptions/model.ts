import crypto from "node:crypto";
import { fail, type Failure } from "@/lib/platform/result";

/*
 * A subscription as the domain hands it out, who acts on subscriptions, and its public representation.
 * The public API, the dashboard and the delivery worker all use these.
 */

export type SubscriptionStatus = "active" | "disabled";

export type Subscription = {
  id: string;
  accountId: string;
  url: string;
  eventTypes: string[];
  description: string;
  status: SubscriptionStatus;
  disabledReason: string | null;
  disabledAt: Date | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
  lastDeliveryAt: Date | null;
  lastDeliveryOk: boolean | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type SubscriptionActor =
  | { type: "api_key"; apiKeyId: string; name: string; prefix: string }
  | { type: "user"; user: { id: string; name: string; email: string } }
  | { type: "system" };

export type SubscriptionContext = { accountId: string; actor: SubscriptionActor };

export type FieldProblem = { field: string; message: string; reason?: string };

export type SubscriptionFailure =
  | (Failure<"invalid"> & { details: FieldProblem[] })
  | Failure<"not_found">
  | (Failure<"plan_limit_reached"> & { limit: number });

export const subscriptionInvalid = (details: FieldProblem[]) => ({
  ...fail("invalid", "Some fields are invalid."),
  details,
});
export const SUBSCRIPTION_NOT_FOUND = fail("not_found", "This subscription does not exist.");
export const subscriptionLimitReached = (limit: number) => ({
  ...fail("plan_limit_reached", `This account has reached its plan's limit of ${limit} webhook subscriptions.`),
  limit,
});

export type SubscriptionResult<T> = ({ ok: true } & T) | SubscriptionFailure;

/** Free 10, Pro 100 subscriptions per account, active or disabled (docs/outbound-webhooks.md). */
export const SUBSCRIPTION_LIMITS: Record<"free" | "pro", number> = { free: 10, pro: 100 };

/** After a rotation the old secret keeps signing (a second signature) this long. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;
/** Notifications, their deliveries and attempts are kept this long (whole UTC days, lib/outbound/retention.ts). */
export const NOTIFICATION_RETENTION_DAYS = 30;

export const SUBSCRIPTION_SECRET_PREFIX = "whsec_";

/** Standard Webhooks secret: "whsec_" + standard base64 of 32 random bytes (the bytes are the HMAC key). */
export function generateSubscriptionSecret(): string {
  return SUBSCRIPTION_SECRET_PREFIX + crypto.randomBytes(32).toString("base64");
}

/** The public API's representation: snake_case, ISO 8601 instants in UTC. Never the secret. */
export function serializeSubscription(subscription: Subscription) {
  return {
    id: subscription.id,
    url: subscription.url,
    event_types: subscription.eventTypes,
    description: subscription.description,
    status: subscription.status,
    disabled_reason: subscription.disabledReason,
    created_at: subscription.createdAt.toISOString(),
    updated_at: subscription.updatedAt.toISOString(),
  };
}

export type ApiSubscription = ReturnType<typeof serializeSubscription>;

/** Why a subscription is disabled when someone disables it, in words for the dashboard. */
export function disabledByText(actor: SubscriptionActor): string {
  switch (actor.type) {
    case "api_key":
      return `Disabled through the API (key "${actor.name}").`;
    case "user":
      return `Disabled by ${actor.user.name}.`;
    default:
      return "Disabled.";
  }
}
