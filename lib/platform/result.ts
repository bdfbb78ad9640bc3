import type { FieldError } from "./validation";

/*
 * The one shape of a domain operation's outcome: `{ ok: true, ...value }` or
 * `{ ok: false, code, message, details? }`. `code` is what callers branch on (a route maps it to an API
 * error code and status, an action to a sentence); `message` is fit to show; `details` names the fields.
 */

export type Failure<C extends string = string> = { ok: false; code: C; message: string; details?: FieldError[] };

export type Result<T extends object, C extends string = string> = ({ ok: true } & T) | Failure<C>;

export function ok<T extends object>(value: T): { ok: true } & T {
  return { ok: true, ...value };
}

export function fail<C extends string>(code: C, message: string, details?: FieldError[]): Failure<C> {
  return details ? { ok: false, code, message, details } : { ok: false, code, message };
}
