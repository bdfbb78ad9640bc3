"use client";

import { Field } from "@/components/ui/field";
import { AuthForm, useKeptFields } from "../_components/auth-form";
import { signInAction } from "./actions";

const SIGN_UP_INSTEAD = { path: "/sign-up", question: "New here?", label: "Create an account" };

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const kept = useKeptFields();
  return (
    <AuthForm
      serverAction={signInAction}
      callbackUrl={callbackUrl}
      other={SIGN_UP_INSTEAD}
      submitLabel="Sign in"
      pendingLabel="Signing in…"
    >
      {() => (
        <>
          <Field label="Email" {...kept("email")} type="email" autoComplete="email" required autoFocus />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        </>
      )}
    </AuthForm>
  );
}
