/*
 * The one answer shape of every server action, readable by client components (no server imports).
 * `error` is always a sentence fit to show; `fieldErrors` names form fields (zod's flattened format).
 */

export type FieldErrors = Record<string, string[]>;

export type ActionResult<T = null> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: FieldErrors };

export function ok<T>(data: T): { ok: true; data: T } {
  return { ok: true, data };
}

/** The message a form shows above its fields when only fields are wrong. */
export const CHECK_FIELDS = "Check the fields marked below.";

export function fail(
  error: string,
  fieldErrors?: Record<string, string | string[] | undefined>,
): { ok: false; error: string; fieldErrors?: FieldErrors } {
  if (!fieldErrors) return { ok: false, error };
  const entries = Object.entries(fieldErrors).flatMap(([field, messages]) =>
    messages === undefined ? [] : [[field, Array.isArray(messages) ? messages : [messages]] as const],
  );
  return { ok: false, error, fieldErrors: Object.fromEntries(entries) };
}

/** The first message per field, as forms show one message under each field. */
export function firstFieldErrors(result: ActionResult<unknown> | null | undefined): Record<string, string> {
  if (!result || result.ok || !result.fieldErrors) return {};
  return Object.fromEntries(
    Object.entries(result.fieldErrors).flatMap(([field, messages]) => (messages[0] ? [[field, messages[0]]] : [])),
  );
}

/** The form-level message: the error unless the field messages already say it all. */
export function formError(result: ActionResult<unknown> | null | undefined): string | undefined {
  if (!result || result.ok) return undefined;
  return result.fieldErrors && Object.keys(result.fieldErrors).length && result.error === CHECK_FIELDS
    ? undefined
    : result.error;
}
