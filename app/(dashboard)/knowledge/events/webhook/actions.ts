"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import { listDeliveries } from "@/lib/events-webhook/deliveries";
import * as sources from "@/lib/events-webhook/sources";
import { sendTestEvent } from "@/lib/events-webhook/test-event";

/*
 * Server actions of Events → Webhook. defineAction checks the session and role; every lib call is scoped
 * by the session's account, so a forged source id of another account finds nothing.
 */

const PAGE = "/knowledge/events/webhook";
const source = z.object({ sourceId: z.string() });

export const createSourceAction = defineAction(
  { role: "manager", input: z.object({ name: z.string().default("") }) },
  async ({ name }, context) => {
    const result = await sources.createSource(context, name);
    if (!result.ok)
      return result.field === "name" ? fail(CHECK_FIELDS, { name: result.message }) : fail(result.message);
    revalidatePath(PAGE);
    return ok({ source: result.source, secret: result.secret });
  },
);

export const setSourceActiveAction = defineAction(
  { role: "manager", input: source.extend({ active: z.boolean() }) },
  async ({ sourceId, active }, context) => {
    const result = await sources.setSourceActive(context, sourceId, active);
    if (!result.ok) return fail(result.message);
    revalidatePath(PAGE);
    return ok({ active: result.source.active });
  },
);

const settingsInput = source.extend({ name: z.string().default(""), rateLimitPerMinute: z.string().default("") });

export const updateSourceSettingsAction = defineAction(
  { role: "manager", input: settingsInput },
  async (input, context) => {
    const rate = input.rateLimitPerMinute.trim();
    const result = await sources.updateSourceSettings(context, input.sourceId, {
      name: input.name,
      rateLimitPerMinute: /^\d+$/.test(rate) ? Number(rate) : Number.NaN,
    });
    if (!result.ok) return result.field ? fail(CHECK_FIELDS, { [result.field]: result.message }) : fail(result.message);
    revalidatePath(PAGE);
    return ok({ message: "Settings saved." });
  },
);

/** The secret is sent to the browser only on request, and only to owners and admins. */
export const revealSecretAction = defineAction({ role: "manager", input: source }, async ({ sourceId }, context) => {
  const result = await sources.revealSecret(context, sourceId);
  return result.ok ? ok({ secret: result.secret }) : fail(result.message);
});

/**
 * No revalidatePath here: refreshing the page would re-render the secret field masked before the
 * user has copied the new secret. The client refreshes once the user dismisses it.
 */
export const rotateSecretAction = defineAction({ role: "manager", input: source }, async ({ sourceId }, context) => {
  const result = await sources.rotateSecret(context, sourceId);
  return result.ok ? ok({ secret: result.secret }) : fail(result.message);
});

export const sendTestEventAction = defineAction({ role: "manager", input: source }, async ({ sourceId }, context) => {
  const result = await sendTestEvent(context, sourceId);
  if (!result.ok) return fail(result.message);
  revalidatePath(PAGE);
  revalidatePath("/knowledge/events");
  return ok({ status: result.status, body: result.body });
});

/** The newest delivery id, polled by the page to announce new deliveries without moving the table. */
export const newestDeliveryAction = defineAction({ role: "member", input: source }, async ({ sourceId }, context) => {
  const page = await listDeliveries(context.account.id, sourceId, { limit: 1 });
  return ok(page.items[0]?.id ?? null);
});
