"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, formTexts, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import type { SessionContext } from "@/lib/auth/session";
import { removeOccurrence, restoreOccurrence, type OccurrenceRequest } from "@/lib/events/exceptions";
import { cancelEvent, createEvent, deleteEvent, updateEvent } from "@/lib/events/repository";
import { zonedInputToIso } from "@/lib/platform/format/zoned-time";

/*
 * Server actions of Knowledge → Events. defineAction checks the session and role; the session's account
 * goes to lib/events, whose every statement is scoped by it.
 */

const PAGE = "/knowledge/events";
const FIELDS = ["title", "description", "location", "url", "price", "recurring", "status"] as const;
const TIMES = ["starts_at", "ends_at"] as const;

// What the form sends; the event's rules (lengths, URL, enums) are lib/events' shared schema's job.
const eventInput = z.object({ eventId: z.string().optional(), ...formTexts([...FIELDS, ...TIMES]) });

/** The form's wall-clock times are in the account's zone; the shared schema gets ISO with an offset. */
function wireInput(
  values: Record<string, string>,
  timezone: string,
): { input: Record<string, string>; errors: Record<string, string> } {
  const input: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const name of FIELDS) if (values[name] !== "" || name === "title") input[name] = values[name];
  for (const name of TIMES) {
    if (!values[name]) {
      if (name === "starts_at") errors[name] = "This field is required.";
      continue;
    }
    const iso = zonedInputToIso(values[name], timezone);
    if (iso) input[name] = iso;
    else errors[name] = "Enter a date and time.";
  }
  return { input, errors };
}

// The shared schema speaks the API's field names; the form's people read its labels.
const LABELS: Record<string, string> = { starts_at: "Starts", ends_at: "Ends", url: "URL" };
const inFormWords = (message: string) => message.replace(/\b(starts_at|ends_at)\b/g, (name) => LABELS[name]);

/** Creates an event, or updates the one named by the form's `eventId`. */
export const saveEventAction = defineAction({ role: "manager", input: eventInput }, async (values, { account }) => {
  const { input, errors } = wireInput(values, account.timezone);
  if (Object.keys(errors).length) return fail(CHECK_FIELDS, errors);
  const { eventId } = values;
  const result = eventId ? await updateEvent(account.id, eventId, input) : await createEvent(account.id, input);
  if (!result.ok) {
    const fieldErrors: Record<string, string> = Object.fromEntries(
      result.details.map((detail) => [detail.field, inFormWords(detail.message)]),
    );
    if (result.code === "duplicate_identity") fieldErrors.title = result.message;
    return Object.keys(fieldErrors).length ? fail(CHECK_FIELDS, fieldErrors) : fail(result.message);
  }
  revalidatePath(PAGE);
  return ok({ message: eventId ? "Event saved." : "Event created." });
});

const oneEvent = z.object({ eventId: z.string() });

export const cancelEventAction = defineAction({ role: "manager", input: oneEvent }, async ({ eventId }, context) => {
  const event = await cancelEvent(context.account.id, eventId);
  if (!event) return fail("The event no longer exists.");
  revalidatePath(PAGE);
  return ok({ message: `“${event.title}” is cancelled.` });
});

export const deleteEventAction = defineAction({ role: "manager", input: oneEvent }, async ({ eventId }, context) => {
  const deleted = await deleteEvent(context.account.id, eventId, context.user);
  if (!deleted) return fail("The event no longer exists.");
  revalidatePath(PAGE);
  return ok({ message: "Event deleted." });
});

// One occurrence of a series, named by its start as the event's page sent it (ISO 8601).
const oneOccurrence = z.object({ eventId: z.string(), occursAt: z.string().max(64) });
const detailPage = (eventId: string) => `${PAGE}/${eventId}`;
const occurrenceRequest = (
  eventId: string,
  occursAt: string,
  { account, user }: SessionContext,
): OccurrenceRequest => ({
  accountId: account.id,
  eventId,
  occursAt,
  actorUserId: user.id,
});

/** Cancels or deletes one later occurrence of a series, as the webhook's cancel or delete of it does. */
export const removeOccurrenceAction = defineAction(
  { role: "manager", input: oneOccurrence.extend({ kind: z.enum(["cancelled", "deleted"]) }) },
  async ({ eventId, occursAt, kind }, context) => {
    const result = await removeOccurrence(occurrenceRequest(eventId, occursAt, context), kind);
    if (!result.ok) return fail(result.message);
    revalidatePath(PAGE);
    revalidatePath(detailPage(eventId));
    return ok({ message: `${result.occurrence} is ${result.kind}; the rest of the series stays.` });
  },
);

/** Restores a removed occurrence of a series, as the webhook's upsert of it does. */
export const restoreOccurrenceAction = defineAction(
  { role: "manager", input: oneOccurrence },
  async ({ eventId, occursAt }, context) => {
    const result = await restoreOccurrence(occurrenceRequest(eventId, occursAt, context));
    if (!result.ok) return fail(result.message);
    revalidatePath(PAGE);
    revalidatePath(detailPage(eventId));
    return ok({ message: `${result.occurrence} is restored.` });
  },
);
