"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import type { SessionContext } from "@/lib/auth/session";
import { zonedInputToIso } from "@/lib/platform/format/zoned-time";
import { replaySince, resendDelivery, sendTestNotification } from "@/lib/outbound/manage";
import { SUBSCRIPTION_NOT_FOUND, type SubscriptionContext } from "@/lib/webhook-subscriptions/model";
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  revealSubscriptionSecret,
  rotateSubscriptionSecret,
  updateSubscription,
} from "@/lib/webhook-subscriptions/store";
import {
  failureMessage,
  fieldErrors,
  invalidFormErrors,
  parseCreate,
  parseUpdate,
  subscriptionFormInput,
} from "./form-input";

/*
 * Server actions of Settings → Webhooks. defineAction checks the session and the role (owners and
 * admins; members only read); the account always comes from the session, and every store call is
 * scoped by it, so an id of another account finds nothing. The store writes the audit entries.
 */

const PAGE = "/settings/webhooks";
const subscription = z.object({ subscriptionId: z.string() });

const contextOf = (session: SessionContext): SubscriptionContext => ({
  accountId: session.account.id,
  actor: { type: "user", user: session.user },
});

export type CreatedSubscription = { id: string; url: string; secret: string };

/** No revalidatePath: the dialog refreshes the list once the secret's reveal is closed (see the dialog). */
export const createSubscriptionAction = defineAction(
  { role: "manager", input: subscriptionFormInput },
  async (input, session) => {
    const parsed = parseCreate(input);
    if (!parsed.ok) return fail(CHECK_FIELDS, await invalidFormErrors(parsed.details, input.url));
    const result = await createSubscription(contextOf(session), parsed.value);
    if (!result.ok)
      return result.code === "invalid"
        ? fail(CHECK_FIELDS, fieldErrors(result.details, input.url))
        : fail(failureMessage(result, session.account.plan));
    return ok<CreatedSubscription>({ id: result.subscription.id, url: result.subscription.url, secret: result.secret });
  },
);

export const updateSubscriptionAction = defineAction(
  { role: "manager", input: subscriptionFormInput.extend(subscription.shape) },
  async (input, session) => {
    const parsed = parseUpdate(input);
    if (!parsed.ok) return fail(CHECK_FIELDS, await invalidFormErrors(parsed.details, input.url));
    const result = await updateSubscription(contextOf(session), input.subscriptionId, {
      ...parsed.value,
      status: undefined,
    });
    if (!result.ok)
      return result.code === "invalid"
        ? fail(CHECK_FIELDS, fieldErrors(result.details, input.url))
        : fail(failureMessage(result, session.account.plan));
    revalidatePath(PAGE, "layout");
    return ok({ message: "Subscription saved." });
  },
);

export const setSubscriptionEnabledAction = defineAction(
  { role: "manager", input: subscription.extend({ enabled: z.boolean() }) },
  async ({ subscriptionId, enabled }, session) => {
    const result = await updateSubscription(contextOf(session), subscriptionId, {
      url: undefined,
      eventTypes: undefined,
      description: undefined,
      status: enabled ? "active" : "disabled",
    });
    if (!result.ok) return fail(failureMessage(result, session.account.plan));
    revalidatePath(PAGE, "layout");
    return ok({
      message: enabled
        ? "Subscription enabled: new notifications are delivered again."
        : "Subscription disabled: it receives nothing until you enable it.",
    });
  },
);

export const deleteSubscriptionAction = defineAction(
  { role: "manager", input: subscription },
  async ({ subscriptionId }, session) => {
    const result = await deleteSubscription(contextOf(session), subscriptionId);
    if (!result.ok) return fail(failureMessage(result, session.account.plan));
    revalidatePath(PAGE);
    return ok({ message: "Subscription deleted. Nothing more is sent to its URL." });
  },
);

/** The secret reaches the browser only on request, only for owners and admins, and each reveal is audited. */
export const revealSubscriptionSecretAction = defineAction(
  { role: "manager", input: subscription },
  async ({ subscriptionId }, session) => {
    const result = await revealSubscriptionSecret(contextOf(session), subscriptionId);
    return result.ok ? ok({ secret: result.secret }) : fail(failureMessage(result, session.account.plan));
  },
);

/**
 * No revalidatePath: a refresh would mask the new secret before it is copied; the page refreshes when the user is done.
 */
export const rotateSubscriptionSecretAction = defineAction(
  { role: "manager", input: subscription },
  async ({ subscriptionId }, session) => {
    const result = await rotateSubscriptionSecret(contextOf(session), subscriptionId);
    return result.ok ? ok({ secret: result.secret }) : fail(failureMessage(result, session.account.plan));
  },
);

const DISABLED =
  "This subscription is disabled. Enable it first; a disabled subscription receives nothing, tests included.";

export const sendTestNotificationAction = defineAction(
  { role: "manager", input: subscription },
  async ({ subscriptionId }, session) => {
    const messageId = await sendTestNotification(session.account.id, subscriptionId);
    if (!messageId)
      return fail(
        (await getSubscription(session.account.id, subscriptionId))
          ? DISABLED
          : failureMessage(SUBSCRIPTION_NOT_FOUND, session.account.plan),
      );
    revalidatePath(PAGE, "layout");
    return ok({
      message: "Test notification queued. Its attempt shows under Delivery attempts within seconds.",
      messageId,
    });
  },
);

export const resendDeliveryAction = defineAction(
  { role: "manager", input: z.object({ deliveryId: z.string() }) },
  async ({ deliveryId }, session) => {
    if (!(await resendDelivery(session.account.id, deliveryId))) {
      return fail(
        "This notification cannot be resent: it is older than 30 days, or its subscription is disabled or deleted.",
      );
    }
    revalidatePath(PAGE, "layout");
    return ok({ message: "Notification queued again; it goes out within moments." });
  },
);

/** "since" is a datetime-local value: wall-clock time in the account's time zone. */
export const replaySinceAction = defineAction(
  { role: "manager", input: subscription.extend({ since: z.string().default("") }) },
  async ({ subscriptionId, since }, session) => {
    const iso = zonedInputToIso(since, session.account.timezone);
    if (!iso) return fail(CHECK_FIELDS, { since: "Enter a date and time." });
    const from = new Date(iso);
    if (from.getTime() > Date.now()) return fail(CHECK_FIELDS, { since: "Choose a moment in the past." });
    const found = await getSubscription(session.account.id, subscriptionId);
    if (!found) return fail(failureMessage(SUBSCRIPTION_NOT_FOUND, session.account.plan));
    if (found.status !== "active") return fail(DISABLED);
    const count = await replaySince(session.account.id, subscriptionId, from);
    revalidatePath(PAGE, "layout");
    return ok({
      message:
        count === 0
          ? "No notifications were sent to this subscription since then; nothing to replay."
          : `${count} notification${count === 1 ? "" : "s"} queued again.`,
    });
  },
);
