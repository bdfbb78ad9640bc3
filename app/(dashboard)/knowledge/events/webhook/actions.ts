"use server";

import { revalidatePath } from "next/cache";
import { authorizeManager, getSessionContext } from "@/lib/auth/session";
import { listDeliveries } from "@/lib/events-webhook/deliveries";
import {
  createSource,
  revealSecret,
  rotateSecret,
  setSourceActive,
  updateSourceSettings,
  type WebhookSourceView,
} from "@/lib/events-webhook/sources";
import { sendTestEvent } from "@/lib/events-webhook/test-event";

/*
 * Server actions of Events → Webhook. Each is a public POST endpoint: it re-checks the session and the
 * role itself, and every lib call is scoped by the session's account, so a forged source id of another
 * account finds nothing.
 */

const PAGE = "/knowledge/events/webhook";

export type Failure = { ok: false; message: string; field?: string };

export type CreateSourceState = { ok?: boolean; message?: string; fieldErrors?: { name?: string }; source?: WebhookSourceView; secret?: string };

export async function createSourceAction(_previous: CreateSourceState, form: FormData): Promise<CreateSourceState> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const result = await createSource(auth.context, String(form.get("name") ?? ""));
  if (!result.ok) return result.field === "name" ? { ok: false, fieldErrors: { name: result.message } } : { ok: false, message: result.message };
  revalidatePath(PAGE);
  return { ok: true, source: result.source, secret: result.secret };
}

export async function setSourceActiveAction(sourceId: string, active: boolean): Promise<{ ok: true; active: boolean } | Failure> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const result = await setSourceActive(auth.context, sourceId, active);
  if (!result.ok) return { ok: false, message: result.message };
  revalidatePath(PAGE);
  return { ok: true, active: result.source.active };
}

export type SettingsState = { ok?: boolean; message?: string; fieldErrors?: { name?: string; rateLimitPerMinute?: string } };

export async function updateSourceSettingsAction(sourceId: string, _previous: SettingsState, form: FormData): Promise<SettingsState> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const rate = String(form.get("rateLimitPerMinute") ?? "").trim();
  const result = await updateSourceSettings(auth.context, sourceId, {
    name: String(form.get("name") ?? ""),
    rateLimitPerMinute: /^\d+$/.test(rate) ? Number(rate) : Number.NaN,
  });
  if (!result.ok) return result.field ? { ok: false, fieldErrors: { [result.field]: result.message } } : { ok: false, message: result.message };
  revalidatePath(PAGE);
  return { ok: true, message: "Settings saved." };
}

/** The secret is sent to the browser only on request, and only to owners and admins. */
export async function revealSecretAction(sourceId: string): Promise<{ ok: true; secret: string } | Failure> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const result = await revealSecret(auth.context, sourceId);
  return result.ok ? { ok: true, secret: result.secret } : { ok: false, message: result.message };
}

/**
 * No revalidatePath here: refreshing the page would re-render the secret field masked before the
 * user has copied the new secret. The client refreshes once the user dismisses it.
 */
export async function rotateSecretAction(sourceId: string): Promise<{ ok: true; secret: string } | Failure> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const result = await rotateSecret(auth.context, sourceId);
  return result.ok ? { ok: true, secret: result.secret } : { ok: false, message: result.message };
}

export async function sendTestEventAction(sourceId: string): Promise<{ ok: true; status: number; body: unknown } | Failure> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const result = await sendTestEvent(auth.context, sourceId);
  if (!result.ok) return { ok: false, message: result.message };
  revalidatePath(PAGE);
  revalidatePath("/knowledge/events");
  return { ok: true, status: result.status, body: result.body };
}

/** The newest delivery id, polled by the page to announce new deliveries without moving the table. */
export async function newestDeliveryAction(sourceId: string): Promise<string | null> {
  const context = await getSessionContext();
  if (!context) return null;
  const page = await listDeliveries(context.account.id, sourceId, { limit: 1 });
  return page.items[0]?.id ?? null;
}
