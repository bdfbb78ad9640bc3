import type { z } from "zod";
import { errorResponse, type ErrorDetail } from "@/lib/platform/http/api-error";

/*
 * Request validation for the public API: zod issues become per-field `details`, the same
 * `[{field, message}]` shape as the events webhook's invalid_payload answer.
 */

export type FieldError = { field: string; message: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; details: FieldError[] };

/** One entry per field (the first issue), in input order; nested fields are dotted ("metadata.plan"). */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const seen = new Set<string>();
  const details: FieldError[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join(".");
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: issue.message });
  }
  return details;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, details: fieldErrors(result.error) };
}

export function invalidRequestResponse(details: ErrorDetail[], message = "The request is not valid; see details."): Response {
  return errorResponse(400, "invalid_request", message, { details });
}
