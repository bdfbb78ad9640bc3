"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";

/**
 * Fields kept in state, so what was typed survives a refused attempt (React resets uncontrolled fields
 * after a form action): `<Field {...kept("email")} />` gives the field its name, value and onChange.
 */
export function useKeptFields() {
  const [values, setValues] = useState<Record<string, string>>({});
  return (name: string) => ({
    name,
    value: values[name] ?? "",
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });
}

/**
 * Sign-in's and sign-up's form: the fields (given the first error per field), the refusal, the submit
 * button and the way to the other page.
 */
export function AuthForm({
  serverAction,
  callbackUrl,
  submitLabel,
  pendingLabel,
  other,
  children,
}: {
  serverAction: (previous: ActionResult<unknown> | null, form: FormData) => Promise<ActionResult<unknown>>;
  callbackUrl?: string;
  submitLabel: string;
  pendingLabel: string;
  /** The other page ("/sign-up"), the question before its link and the link's text. */
  other: { path: string; question: string; label: string };
  children: (errors: Record<string, string>) => React.ReactNode;
}) {
  const [state, action, pending] = useActionState(serverAction, null);
  return (
    <form action={action} className="space-y-5" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl ?? ""} />
      {children(firstFieldErrors(state))}
      <FormAlert>{formError(state)}</FormAlert>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
      <p className="text-center text-sm text-zinc-600">
        {other.question}{" "}
        <Link
          href={callbackUrl ? `${other.path}?callbackUrl=${encodeURIComponent(callbackUrl)}` : other.path}
          className="font-medium text-indigo-600 hover:text-indigo-500"
        >
          {other.label}
        </Link>
      </p>
    </form>
  );
}
