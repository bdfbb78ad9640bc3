"use client";

import Link from "next/link";
import { useActionState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { signUpAction, type SignUpState } from "./actions";

export function SignUpForm({ callbackUrl }: { callbackUrl?: string }) {
  const [state, action, pending] = useActionState<SignUpState, FormData>(signUpAction, {});
  const errors = state.fieldErrors ?? {};
  const timezone = useSyncExternalStore(
    () => () => {},
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => "",
  );
  return (
    <form action={action} className="space-y-5" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl ?? ""} />
      <input type="hidden" name="timezone" value={timezone} />
      <Field label="Name" name="name" autoComplete="name" defaultValue={state.values?.name} error={errors.name} required autoFocus />
      <Field label="Email" name="email" type="email" autoComplete="email" defaultValue={state.values?.email} error={errors.email} required />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        hint="At least 10 characters."
        required
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Creating account…" : "Create account"}
      </Button>
      <p className="text-center text-sm text-zinc-600">
        Already have an account?{" "}
        <Link href={callbackUrl ? `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/sign-in"} className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </p>
    </form>
  );
}
