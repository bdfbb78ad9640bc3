import "server-only";
import { checkPlanLimit } from "@/lib/accounts/plan-limit";
import { recordAudit, type AuditAction, type AuditActor } from "@/lib/audit/record";
import { recordNotice } from "@/lib/notices/record";
import { db } from "@/lib/platform/db/client";
import type { Prisma } from "@/lib/platform/db/generated/client";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/secrets";
import { newPublicId, isPublicId, isUuid } from "@/lib/platform/ids";
import { allowLoopbackTargets } from "./addresses";
import {
  disabledByText,
  generateSubscriptionSecret,
  PREVIOUS_SECRET_TTL_MS,
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_NOT_FOUND,
  subscriptionInvalid,
  subscriptionLimitReached,
  type FieldProblem,
  type Subscription,
  type SubscriptionActor,
  type SubscriptionContext,
  type SubscriptionFailure,
  type SubscriptionResult,
} from "./model";
import { type CreateSubscriptionBody, type UpdateSubscriptionBody } from "./schemas";
import { originAndPath, validateTargetUrl } from "./target-url";

/*
 * Subscriptions of one account: every query is scoped by account id, and an id of another account is
 * "not_found" like an unknown one. Each change writes its audit entry in the same transaction.
 * Callers check who may act (the public API: the webhooks scope; the dashboard: owners and admins).
 */

export const subscriptionSelect = {
  id: true,
  accountId: true,
  url: true,
  eventTypes: true,
  description: true,
  status: true,
  disabledReason: true,
  disabledAt: true,
  previousSecretExpiresAt: true,
  failingSince: true,
  lastDeliveryAt: true,
  lastDeliveryOk: true,
  lastError: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookSubscriptionSelect;

const notFound: SubscriptionFailure = SUBSCRIPTION_NOT_FOUND;

const validId = (accountId: string, id: string) => isUuid(accountId) && isPublicId(id, "subscription");

function auditActor(actor: SubscriptionActor): AuditActor {
  if (actor.type === "user") return actor.user;
  if (actor.type === "api_key") return { type: "api_key", id: actor.apiKeyId, name: actor.name, prefix: actor.prefix };
  return null;
}

async function audit(
  tx: Prisma.TransactionClient,
  context: SubscriptionContext,
  action: AuditAction,
  subscription: { id: string; url: string },
  metadata: Record<string, Prisma.InputJsonValue | null> = {},
) {
  const apiKey = context.actor.type === "api_key" ? { api_key_id: context.actor.apiKeyId } : {};
  await recordAudit(
    {
      accountId: context.accountId,
      actor: auditActor(context.actor),
      action,
      // Origin and path: the query of a hook URL often carries its token (docs/outbound-webhooks.md).
      target: { type: "webhook_subscription", id: subscription.id, label: originAndPath(subscription.url) },
      metadata: { ...metadata, ...apiKey },
    },
    tx,
  );
}

/** The URL's SSRF check as a per-field problem (field: url, or target_url for the legacy form). */
async function checkUrl(url: string, field: string): Promise<FieldProblem | string> {
  const checked = await validateTargetUrl(url, { allowLoopback: allowLoopbackTargets() });
  return checked.ok ? checked.value : { field, message: checked.message, reason: checked.code };
}

export async function getSubscription(accountId: string, id: string): Promise<Subscription | null> {
  if (!validId(accountId, id)) return null;
  return db.prisma.webhookSubscription.findFirst({ where: { id, accountId }, select: subscriptionSelect });
}

/** The subscription with its current secret, for a replayed subscribe answer (lib/webhook-subscriptions/http.ts). */
export async function subscriptionWithSecret(
  accountId: string,
  id: string,
): Promise<{ subscription: Subscription; secret: string } | null> {
  if (!validId(accountId, id)) return null;
  const row = await db.prisma.webhookSubscription.findFirst({
    where: { id, accountId },
    select: { ...subscriptionSelect, secretCiphertext: true },
  });
  if (!row) return null;
  const { secretCiphertext, ...subscription } = row;
  return { subscription, secret: decryptSecret(secretCiphertext) };
}

/** Creates a subscription within the plan's limit; the secret is in the answer and nowhere else in plain text. */
export async function createSubscription(
  context: SubscriptionContext,
  input: CreateSubscriptionBody,
): Promise<SubscriptionResult<{ subscription: Subscription; secret: string }>> {
  const url = await checkUrl(input.url, input.urlField);
  if (typeof url !== "string") return subscriptionInvalid([url]);
  const { accountId } = context;
  if (!isUuid(accountId)) return notFound;
  const secret = generateSubscriptionSecret();
  return db.prisma.$transaction(async (tx) => {
    const room = await checkPlanLimit(
      tx,
      accountId,
      (plan) => SUBSCRIPTION_LIMITS[plan],
      () => tx.webhookSubscription.count({ where: { accountId } }),
    );
    if (!room) return notFound;
    if (!room.ok) return subscriptionLimitReached(room.limit);
    const subscription = await tx.webhookSubscription.create({
      data: {
        id: newPublicId("subscription"),
        accountId,
        url,
        eventTypes: input.eventTypes,
        description: input.description,
        secretCiphertext: encryptSecret(secret),
      },
      select: subscriptionSelect,
    });
    await audit(tx, context, "webhook_subscription.created", subscription, { event_types: subscription.eventTypes });
    return { ok: true as const, subscription, secret };
  });
}

/** A partial update. Re-enabling clears the reason and the failure run, so delivery starts afresh. */
export async function updateSubscription(
  context: SubscriptionContext,
  id: string,
  input: UpdateSubscriptionBody,
): Promise<SubscriptionResult<{ subscription: Subscription }>> {
  if (!validId(context.accountId, id)) return notFound;
  const data: Prisma.WebhookSubscriptionUpdateInput = {};
  if (input.url !== undefined) {
    const url = await checkUrl(input.url, "url");
    if (typeof url !== "string") return subscriptionInvalid([url]);
    data.url = url;
  }
  if (input.eventTypes !== undefined) data.eventTypes = input.eventTypes;
  if (input.description !== undefined) data.description = input.description;
  return db.prisma.$transaction(async (tx) => {
    const before = await tx.webhookSubscription.findFirst({
      where: { id, accountId: context.accountId },
      select: subscriptionSelect,
    });
    if (!before) return notFound;
    const statusChange = input.status !== undefined && input.status !== before.status ? input.status : undefined;
    if (statusChange === "disabled")
      Object.assign(data, {
        status: "disabled",
        disabledReason: disabledByText(context.actor),
        disabledAt: new Date(),
      });
    if (statusChange === "active")
      Object.assign(data, { status: "active", disabledReason: null, disabledAt: null, failingSince: null });
    const changed = (["url", "eventTypes", "description"] as const).filter(
      (field) => field in data && JSON.stringify(data[field]) !== JSON.stringify(before[field]),
    );
    if (!statusChange && changed.length === 0) return { ok: true as const, subscription: before };
    const subscription = await tx.webhookSubscription.update({
      where: { accountId_id: { accountId: context.accountId, id: before.id } },
      data,
      select: subscriptionSelect,
    });
    // The database's clock, as the messages' created_at: the fan-out relay gives a re-enabled subscription
    // only what was written from now on, not what waited while it was disabled (docs/outbound-webhooks.md).
    if (statusChange === "active")
      await tx.$executeRaw`UPDATE webhook_subscriptions SET active_since = now()
        WHERE account_id = ${context.accountId}::uuid AND id = ${before.id}`;
    if (changed.length > 0) {
      // A URL is recorded as origin and path, like the entry's label.
      const recorded = (field: string, value: string | string[]) =>
        field === "url" ? originAndPath(String(value)) : value;
      const changes = Object.fromEntries(
        changed.map((field) => [
          field,
          { from: recorded(field, before[field]), to: recorded(field, subscription[field]) },
        ]),
      );
      await audit(tx, context, "webhook_subscription.updated", subscription, changes);
    }
    if (statusChange)
      await audit(
        tx,
        context,
        statusChange === "active" ? "webhook_subscription.enabled" : "webhook_subscription.disabled",
        subscription,
      );
    return { ok: true as const, subscription };
  });
}

export async function deleteSubscription(
  context: SubscriptionContext,
  id: string,
): Promise<SubscriptionResult<object>> {
  if (!validId(context.accountId, id)) return notFound;
  return db.prisma.$transaction(async (tx) => {
    const [deleted] = await tx.webhookSubscription.findMany({
      where: { id, accountId: context.accountId },
      select: { id: true, url: true },
    });
    if (!deleted) return notFound;
    await tx.webhookSubscription.delete({
      where: { accountId_id: { accountId: context.accountId, id: deleted.id } },
    });
    await audit(tx, context, "webhook_subscription.deleted", deleted);
    return { ok: true as const };
  });
}

/** A new secret; the old one keeps signing (a second signature) for 24 hours so receivers can switch over. */
export async function rotateSubscriptionSecret(
  context: SubscriptionContext,
  id: string,
): Promise<SubscriptionResult<{ subscription: Subscription; secret: string }>> {
  if (!validId(context.accountId, id)) return notFound;
  const secret = generateSubscriptionSecret();
  return db.prisma.$transaction(async (tx) => {
    const before = await tx.webhookSubscription.findFirst({
      where: { id, accountId: context.accountId },
      select: { id: true, secretCiphertext: true },
    });
    if (!before) return notFound;
    const subscription = await tx.webhookSubscription.update({
      where: { accountId_id: { accountId: context.accountId, id: before.id } },
      data: {
        secretCiphertext: encryptSecret(secret),
        previousSecretCiphertext: before.secretCiphertext,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_TTL_MS),
      },
      select: subscriptionSelect,
    });
    await audit(tx, context, "webhook_subscription.secret_rotated", subscription);
    return { ok: true as const, subscription, secret };
  });
}

/** The current secret shown to a person (Reveal in the dashboard), recorded in the audit log with the read. */
export async function revealSubscriptionSecret(
  context: SubscriptionContext,
  id: string,
): Promise<SubscriptionResult<{ secret: string }>> {
  if (!validId(context.accountId, id)) return notFound;
  return db.prisma.$transaction(async (tx) => {
    const row = await tx.webhookSubscription.findFirst({
      where: { id, accountId: context.accountId },
      select: { id: true, url: true, secretCiphertext: true },
    });
    if (!row) return notFound;
    await audit(tx, context, "webhook_subscription.secret_revealed", row);
    return { ok: true as const, secret: decryptSecret(row.secretCiphertext) };
  });
}

/**
 * The secrets that sign a notification now: the current one, then the previous one while its 24 hours
 * after a rotation last. For the delivery worker; people use revealSubscriptionSecret.
 */
export async function signingSecrets(accountId: string, id: string, now = new Date()): Promise<string[] | null> {
  if (!validId(accountId, id)) return null;
  const row = await db.prisma.webhookSubscription.findFirst({
    where: { id, accountId },
    select: { secretCiphertext: true, previousSecretCiphertext: true, previousSecretExpiresAt: true },
  });
  return row ? secretsOf(row, now) : null;
}

export function secretsOf(
  row: { secretCiphertext: string; previousSecretCiphertext: string | null; previousSecretExpiresAt: Date | null },
  now = new Date(),
): string[] {
  const secrets = [decryptSecret(row.secretCiphertext)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now)
    secrets.push(decryptSecret(row.previousSecretCiphertext));
  return secrets;
}

/**
 * Disables a subscription for the system (the receiver answered 410, or 5 days of failures), with an
 * audit entry and a notice for the owners' banner (lib/notices); `reason` is shown in the dashboard. No-op (false) when
 * it is already disabled or gone.
 */
export async function disableSubscription(
  accountId: string,
  id: string,
  reason: string,
  tx?: Prisma.TransactionClient,
): Promise<boolean> {
  if (!validId(accountId, id)) return false;
  const run = async (client: Prisma.TransactionClient) => {
    const { count } = await client.webhookSubscription.updateMany({
      where: { id, accountId, status: "active" },
      data: { status: "disabled", disabledReason: reason, disabledAt: new Date() },
    });
    if (count === 0) return false;
    const row = await client.webhookSubscription.findFirstOrThrow({
      where: { id, accountId },
      select: { id: true, url: true },
    });
    await audit(client, { accountId, actor: { type: "system" } }, "webhook_subscription.disabled", row, { reason });
    await recordNotice(client, {
      accountId,
      kind: "subscription_disabled",
      targetId: id,
      targetLabel: originAndPath(row.url),
      message: reason,
    });
    return true;
  };
  return tx ? run(tx) : db.prisma.$transaction(run);
}
