import type { z } from "zod";

/*
 * zod issues as the `details` of an error answer or a failed result: `[{field, message}]`, the one shape
 * of the public API's invalid_request, the events webhook's invalid_payload and the forms' field errors.
 */

export type FieldError = { field: string; message: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; details: FieldError[] };

/**
 * One entry per field (its first issue), in input order; nested fields are dotted ("metadata.plan").
 * `prefix` names where the parsed value sits in a larger body ("event" gives "event.title").
 */
export function fieldErrors(error: z.ZodError, prefix = ""): FieldError[] {
  const seen = new Set<string>();
  const details: FieldError[] = [];
  for (const issue of error.issues) {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: issue.message });
  }
  return details;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix = ""): Parsed<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, details: fieldErrors(result.error, prefix) };
}
