"use server";

import { revalidatePath } from "next/cache";
import { authorizeManager } from "@/lib/auth/session";
import { cancelEvent, createEvent, deleteEvent, updateEvent } from "@/lib/events/repository";
import { zonedInputToIso } from "@/lib/format/zoned-time";

/*
 * Server actions of Knowledge → Events. Each re-checks the session and role (server actions are public
 * endpoints) and passes the session's account to lib/events, whose every statement is scoped by it.
 */

const PAGE = "/knowledge/events";
const FIELDS = ["title", "description", "location", "url", "price", "recurring", "status"] as const;

export type EventFormState = { ok?: boolean; message?: string; fieldErrors?: Record<string, string>; values?: Record<string, string> };

/** The form's wall-clock times are in the account's zone; the shared schema gets ISO with an offset. */
function wireInput(form: FormData, timezone: string): { input: Record<string, string>; errors: Record<string, string>; values: Record<string, string> } {
  const values = Object.fromEntries([...FIELDS, "starts_at", "ends_at"].map((name) => [name, String(form.get(name) ?? "")]));
  const input: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const name of FIELDS) if (values[name] !== "" || name === "title") input[name] = values[name];
  for (const name of ["starts_at", "ends_at"] as const) {
    if (!values[name]) {
      if (name === "starts_at") errors[name] = "This field is required.";
      continue;
    }
    const iso = zonedInputToIso(values[name], timezone);
    if (iso) input[name] = iso;
    else errors[name] = "Enter a date and time.";
  }
  return { input, errors, values };
}

async function saveEvent(eventId: string | null, form: FormData): Promise<EventFormState> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const { account } = auth.context;
  const { input, errors, values } = wireInput(form, account.timezone);
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors, values };
  const result = eventId ? await updateEvent(account.id, eventId, input) : await createEvent(account.id, input);
  if (!result.ok) {
    const fieldErrors = Object.fromEntries(result.details.map((detail) => [detail.field, detail.message]));
    if (result.code === "duplicate_identity") fieldErrors.title = result.message;
    return { ok: false, message: result.details.length || result.code === "duplicate_identity" ? undefined : result.message, fieldErrors, values };
  }
  revalidatePath(PAGE);
  return { ok: true, message: eventId ? "Event saved." : "Event created." };
}

export async function createEventAction(_previous: EventFormState, form: FormData): Promise<EventFormState> {
  return saveEvent(null, form);
}

export async function updateEventAction(eventId: string, _previous: EventFormState, form: FormData): Promise<EventFormState> {
  return saveEvent(eventId, form);
}

export async function cancelEventAction(eventId: string): Promise<{ ok: boolean; message: string }> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const event = await cancelEvent(auth.context.account.id, eventId);
  if (!event) return { ok: false, message: "The event no longer exists." };
  revalidatePath(PAGE);
  return { ok: true, message: `“${event.title}” is cancelled.` };
}

export async function deleteEventAction(eventId: string): Promise<{ ok: boolean; message: string }> {
  const auth = await authorizeManager();
  if (!auth.ok) return { ok: false, message: auth.message };
  const deleted = await deleteEvent(auth.context.account.id, eventId, auth.context.user);
  if (!deleted) return { ok: false, message: "The event no longer exists." };
  revalidatePath(PAGE);
  return { ok: true, message: "Event deleted." };
}
