import "server-only";
import { z } from "zod";
import { canManage, getSessionContext, type SessionContext } from "@/lib/auth/session";
import { CHECK_FIELDS, fail, type ActionResult } from "./result";

export { fail, ok, type ActionResult } from "./result";

/*
 * Every server action is a public POST endpoint, so every one is declared through defineAction, which
 * checks, in this order and before the handler runs: the session, the role, and the input (zod).
 *
 * Role checks belong HERE: the action's `role` is the authority on who may call it. lib/ domain functions
 * take the session's account (and user) as given and scope every statement by it; they need not check
 * roles (where one still does, it is a second guard, not the rule). Pages hide controls from members, but
 * that is presentation only.
 *
 *   role "manager": owners and admins;  "member": anyone signed in to the account;  "public": no session.
 */

export type ActionRole = "manager" | "member" | "public";
type ContextFor<R extends ActionRole> = R extends "public" ? null : SessionContext;

export const SESSION_ENDED = "Your session has ended. Sign in again.";
export const MANAGERS_ONLY = "Only owners and admins can do this.";

/**
 * An action takes its input as FormData (a form's action) or a plain object (a call from a component).
 * Forms driven by useActionState call it as (previousResult, formData); the previous result is ignored.
 */
export type Action<T> = (
  inputOrPrevious: FormData | Record<string, unknown> | ActionResult<T> | null,
  form?: FormData,
) => Promise<ActionResult<T>>;

/** FormData as an object: a name sent once is a string (or File), a name sent several times an array. */
export function formDataToObject(form: FormData): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    object[name] = values.length === 1 ? values[0] : values;
  }
  return object;
}

/** For schemas: a form field that may be sent zero, one or many times, as an array. */
export function formList<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]),
    z.array(item),
  );
}

/** For schemas: text fields a form always has; one that was not sent reads as "". */
export function formTexts<const K extends string>(names: readonly K[]) {
  return Object.fromEntries(names.map((name) => [name, z.string().default("")])) as Record<
    K,
    z.ZodDefault<z.ZodString>
  >;
}

export function defineAction<R extends ActionRole, S extends z.ZodType, T>(
  options: { role: R; input: S },
  handler: (input: z.output<S>, context: ContextFor<R>) => Promise<ActionResult<T>>,
): Action<T> {
  return async function action(...args: unknown[]): Promise<ActionResult<T>> {
    const raw = args.length >= 2 ? args[1] : args[0];
    const context = await authorize(options.role);
    if (typeof context === "string") return fail(context);

    const parsed = options.input.safeParse(raw instanceof FormData ? formDataToObject(raw) : (raw ?? {}));
    if (!parsed.success) {
      const flat = z.flattenError(parsed.error);
      return fail(flat.formErrors[0] ?? CHECK_FIELDS, flat.fieldErrors as Record<string, string[]>);
    }
    return handler(parsed.data, context as ContextFor<R>);
  };
}

/** The session context for the role, or the message to answer with. */
async function authorize(role: ActionRole): Promise<SessionContext | null | string> {
  if (role === "public") return null;
  const context = await getSessionContext();
  if (!context) return SESSION_ENDED;
  if (role === "manager" && !canManage(context)) return MANAGERS_ONLY;
  return context;
}
