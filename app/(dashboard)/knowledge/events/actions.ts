"use server";

import { revalidatePath } from "next/cache";
import { authorizeManager } from "@/lib/auth/session";
import { MAX_CSV_BYTES, parseEventsCsv, type CsvRowProblem } from "@/lib/events/csv-format";
import { importEvents, validateCsvRows } from "@/lib/events/csv-import";
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
  const deleted = await deleteEvent(auth.context.account.id, eventId);
  if (!deleted) return { ok: false, message: "The event no longer exists." };
  revalidatePath(PAGE);
  return { ok: true, message: "Event deleted." };
}

export type CsvPreviewRow = { line: number; title: string; startsAt: string; location: string; problems: string[] };
export type CsvImportState =
  | { stage: "idle" }
  | { stage: "error"; message: string }
  | { stage: "preview"; fileName: string; total: number; valid: number; rows: CsvPreviewRow[]; problems: CsvRowProblem[] }
  | { stage: "done"; created: number; updated: number; failed: number; problems: CsvRowProblem[] };

const MAX_LISTED_PROBLEMS = 200;

/** One action for both steps: `intent=preview` validates only; `intent=import` writes the valid rows. */
export async function csvImportAction(_previous: CsvImportState, form: FormData): Promise<CsvImportState> {
  const auth = await authorizeManager();
  if (!auth.ok) return { stage: "error", message: auth.message };
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return { stage: "error", message: "Choose a CSV file to import." };
  if (file.size > MAX_CSV_BYTES) return { stage: "error", message: "The file is larger than 5 MiB. Split it into smaller files." };
  const parsed = parseEventsCsv(Buffer.from(await file.arrayBuffer()));
  if (!parsed.ok) return { stage: "error", message: parsed.message };
  const { valid, problems } = validateCsvRows(parsed);

  if (form.get("intent") !== "import") {
    const problemsByLine = new Map<number, string[]>();
    for (const problem of problems) problemsByLine.set(problem.line, [...(problemsByLine.get(problem.line) ?? []), problem.field ? `${problem.field}: ${problem.message}` : problem.message]);
    const rows = parsed.rows.slice(0, 10).map((row) => ({
      line: row.line,
      title: row.values.title ?? "",
      startsAt: row.values.starts_at ?? "",
      location: row.values.location ?? "",
      problems: problemsByLine.get(row.line) ?? [],
    }));
    return { stage: "preview", fileName: file.name, total: parsed.rows.length + parsed.problems.length, valid: valid.length, rows, problems: problems.slice(0, MAX_LISTED_PROBLEMS) };
  }

  const summary = await importEvents(auth.context.account.id, valid);
  revalidatePath(PAGE);
  const allProblems = [...problems, ...summary.problems].sort((a, b) => a.line - b.line);
  return {
    stage: "done",
    created: summary.created,
    updated: summary.updated,
    failed: summary.failed + new Set(problems.map((problem) => problem.line)).size,
    problems: allProblems.slice(0, MAX_LISTED_PROBLEMS),
  };
}
