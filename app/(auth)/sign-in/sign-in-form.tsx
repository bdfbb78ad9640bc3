"use client";

import { useActionState } from "react";
import { Field } from "@/components/ui/field";
import { formError, type ActionResult } from "@/lib/actions/result";
import { AuthForm, useKeptFields } from "../_components/auth-form";
import { signInAction } from "./actions";

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const [state, action, pending] = useActionState<ActionResult<unknown> | null, FormData>(signInAction, null);
  const kept = useKeptFields();
  return (
    <AuthForm
      action={action}
      pending={pending}
      error={formError(state)}
      callbackUrl={callbackUrl}
      submitLabel="Sign in"
      pendingLabel="Signing in…"
      other={{ path: "/sign-up", question: "New here?", label: "Create an account" }}
    >
      <Field label="Email" {...kept("email")} type="email" autoComplete="email" required autoFocus />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
    </AuthForm>
  );
}
