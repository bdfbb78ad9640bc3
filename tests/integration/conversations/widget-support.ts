import { findWidget, getOrCreateWidget, type ChatWidget } from "@/lib/conversations/widget";
import { createAccount } from "../../support/factories";
import { signInAs } from "../../support/request-context";

/* What the Settings → Chat widget tests share: a signed-in owner with a widget, the form, what is stored. */

/** A new owner, signed in, and the account's chat widget as first created. */
export async function ownerWithWidget() {
  const owner = await createAccount();
  const widget = await getOrCreateWidget(owner.accountId);
  await signInAs(owner.user);
  return { owner, widget };
}

/** The settings form as the browser posts it, one entry per field. */
export function settingsForm(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

/** The stored widget's `fields` (named as the form names them), or null when there is no such widget. */
export async function storedSettings<K extends keyof ChatWidget>(widgetId: string, fields: readonly K[]) {
  const widget = await findWidget(widgetId);
  return widget && (Object.fromEntries(fields.map((field) => [field, widget[field]])) as Pick<ChatWidget, K>);
}
