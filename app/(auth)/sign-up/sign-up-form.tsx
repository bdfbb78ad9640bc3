"use client";

import { useActionState, useSyncExternalStore } from "react";
import { Field } from "@/components/ui/field";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
import { AuthForm, useKeptFields } from "../_components/auth-form";
import { signUpAction } from "./actions";

export function SignUpForm({ callbackUrl }: { callbackUrl?: string }) {
  const [state, action, pending] = useActionState<ActionResult<unknown> | null, FormData>(signUpAction, null);
  const errors = firstFieldErrors(state);
  // All three are kept: a refused email must not cost the person the password they just typed.
  const kept = useKeptFields();
  const timezone = useSyncExternalStore(
    () => () => {},
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => "",
  );
  return (
    <AuthForm
      action={action}
      pending={pending}
      error={formError(state)}
      callbackUrl={callbackUrl}
      submitLabel="Create account"
      pendingLabel="Creating account…"
      other={{ path: "/sign-in", question: "Already have an account?", label: "Sign in" }}
    >
      <input type="hidden" name="timezone" value={timezone} />
      <Field label="Name" {...kept("name")} autoComplete="name" error={errors.name} required autoFocus />
      <Field label="Email" {...kept("email")} type="email" autoComplete="email" error={errors.email} required />
      <Field
        label="Password"
        {...kept("password")}
        type="password"
        autoComplete="new-password"
        error={errors.password}
        hint="At least 10 characters."
        required
      />
    </AuthForm>
  );
}
