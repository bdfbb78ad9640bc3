"use client";

import { useSyncExternalStore } from "react";
import { Field } from "@/components/ui/field";
import { AuthForm, useKeptFields } from "../_components/auth-form";
import { signUpAction } from "./actions";

export function SignUpForm({ callbackUrl }: { callbackUrl?: string }) {
  // All three are kept: a refused email must not cost the person the password they just typed.
  const kept = useKeptFields();
  const timezone = useSyncExternalStore(
    () => () => {},
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => "",
  );
  return (
    <AuthForm
      serverAction={signUpAction}
      callbackUrl={callbackUrl}
      submitLabel="Create account"
      pendingLabel="Creating account…"
      other={{ path: "/sign-in", question: "Already have an account?", label: "Sign in" }}
    >
      {(errors) => (
        <>
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
        </>
      )}
    </AuthForm>
  );
}
