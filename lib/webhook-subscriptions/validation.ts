import type { z } from "zod";
import type { FieldProblem } from "./model";

/*
 * Like parseWith (lib/api/validation.ts), but a custom issue's `params.reason` is kept in its
 * detail, so clients can branch on a stable code ("unknown_event_type", "empty_event_types", …).
 */

export type DetailedParse<T> = { ok: true; value: T } | { ok: false; details: FieldProblem[] };

export function parseDetailed<S extends z.ZodType>(schema: S, input: unknown): DetailedParse<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const seen = new Set<string>();
  const details: FieldProblem[] = [];
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".");
    if (seen.has(field)) continue;
    seen.add(field);
    const reason = issue.code === "custom" ? (issue.params as { reason?: string } | undefined)?.reason : undefined;
    details.push(reason ? { field, message: issue.message, reason } : { field, message: issue.message });
  }
  return { ok: false, details };
}
