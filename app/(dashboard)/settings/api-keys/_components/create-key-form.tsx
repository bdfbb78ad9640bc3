"use client";

import { FormAlert } from "@/components/ui/form-alert";
import { useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { DialogBody, FormDialogFooter, dialogFormClasses } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { MAX_KEY_NAME_LENGTH, type CreateApiKeyField } from "@/lib/api-keys/input";
import { SCOPE_DESCRIPTIONS, SCOPE_PRESETS, SCOPES, type Scope } from "@/lib/api-keys/scopes";
import { useFieldErrors } from "@/app/(dashboard)/_components/use-field-errors";
import { formError as formErrorOf, type ActionResult } from "@/lib/actions/result";
import type { CreatedApiKey } from "../actions";
import { ExpiryField } from "./expiry-field";
import { ChipButton } from "@/components/ui/chip-button";

type Props = {
  state: ActionResult<CreatedApiKey> | null;
  action: (form: FormData) => void;
  pending: boolean;
  onCancel: () => void;
};

const sameScopes = (a: ReadonlySet<Scope>, b: readonly Scope[]) =>
  a.size === b.length && b.every((scope) => a.has(scope));

export function CreateKeyForm({ state, action, pending, onCancel }: Props) {
  // Controlled fields: React resets uncontrolled ones after a form action, which would wipe the
  // user's input when the server answers with field errors.
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ReadonlySet<Scope>>(new Set());
  const scopesId = useId();
  const { errors, markEdited, bind } = useFieldErrors<CreateApiKeyField>(state);
  const formError = formErrorOf(state);

  const chooseScopes = (next: ReadonlySet<Scope>) => {
    setScopes(next);
    markEdited("scopes");
  };
  const toggle = (scope: Scope, checked: boolean) => {
    const next = new Set(scopes);
    if (checked) next.add(scope);
    else next.delete(scope);
    chooseScopes(next);
  };

  return (
    <form action={action} className={dialogFormClasses} noValidate>
      <DialogBody>
        <FormAlert>{formError}</FormAlert>

        <Field
          label="Name"
          {...bind("name", name, setName)}
          maxLength={MAX_KEY_NAME_LENGTH}
          placeholder="e.g. Zapier – lead sync"
          hint="Say which integration uses it, so you know what breaks if you revoke it."
          autoComplete="off"
          required
          autoFocus
        />

        <fieldset aria-describedby={errors.scopes ? `${scopesId}-error` : undefined} className="space-y-3">
          <legend className="text-sm font-medium text-zinc-800">Scopes</legend>
          <div>
            <p className="mb-1.5 text-xs text-zinc-500">Start from a recommended set:</p>
            <div className="flex flex-wrap gap-1.5">
              {SCOPE_PRESETS.map((preset) => {
                const selected = sameScopes(scopes, preset.scopes);
                return (
                  <ChipButton
                    key={preset.label}
                    selected={selected}
                    onClick={() => chooseScopes(new Set(preset.scopes))}
                    title={preset.scopes.join(", ")}
                  >
                    {preset.label}
                  </ChipButton>
                );
              })}
            </div>
          </div>
          <div className="grid gap-2 sm:grid-cols-2">
            {SCOPES.map((scope) => {
              const checked = scopes.has(scope);
              return (
                // The label makes the whole card clickable; aria-labelledby keeps the accessible name to the scope
                // itself.
                <label
                  key={scope}
                  className={cn(
                    "flex cursor-pointer gap-3 rounded-lg p-3 ring-1 ring-inset transition-colors",
                    checked ? "bg-indigo-50/60 ring-indigo-300" : "ring-zinc-200 hover:bg-zinc-50",
                  )}
                >
                  <input
                    type="checkbox"
                    name="scopes"
                    value={scope}
                    checked={checked}
                    onChange={(event) => toggle(scope, event.target.checked)}
                    aria-labelledby={`${scopesId}-${scope}`}
                    aria-describedby={`${scopesId}-${scope}-description`}
                    className="mt-0.5 size-4 shrink-0 rounded accent-indigo-600"
                  />
                  <span className="min-w-0">
                    <span id={`${scopesId}-${scope}`} className="block font-mono text-xs font-semibold text-zinc-900">
                      {scope}
                    </span>
                    <span
                      id={`${scopesId}-${scope}-description`}
                      className="mt-0.5 block text-xs leading-5 text-zinc-600"
                    >
                      {SCOPE_DESCRIPTIONS[scope]}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
          {errors.scopes ? (
            <p id={`${scopesId}-error`} className="text-xs font-medium text-red-600">
              {errors.scopes}
            </p>
          ) : null}
        </fieldset>

        <ExpiryField error={errors.expiresAt} onChange={() => markEdited("expiresAt")} />
      </DialogBody>
      <FormDialogFooter submitLabel="Create" pendingLabel="Creating…" pending={pending} onCancel={onCancel} />
    </form>
  );
}
