"use client";

import { useActionState, useEffect } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
import { updateSourceSettingsAction } from "../actions";

export function SourceSettingsForm({
  sourceId,
  name,
  rateLimitPerMinute,
  canManage,
}: {
  sourceId: string;
  name: string;
  rateLimitPerMinute: number;
  canManage: boolean;
}) {
  const [state, action, pending] = useActionState<ActionResult<{ message: string }> | null, FormData>(
    updateSourceSettingsAction,
    null,
  );
  const errors = firstFieldErrors(state);
  useEffect(() => {
    if (state?.ok) toast.success(state.data.message);
    else if (formError(state)) toast.error(formError(state));
  }, [state]);

  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="sourceId" value={sourceId} />
      <Field
        label="Source name"
        name="name"
        defaultValue={name}
        maxLength={100}
        error={errors.name}
        disabled={!canManage}
        required
      />
      <Field
        label="Rate limit (requests per minute)"
        name="rateLimitPerMinute"
        type="number"
        min={1}
        max={100000}
        inputMode="numeric"
        defaultValue={rateLimitPerMinute}
        error={errors.rateLimitPerMinute}
        hint="Requests over the limit get 429 with Retry-After; senders should retry with exponential backoff."
        disabled={!canManage}
        required
      />
      {canManage ? (
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Saving…" : "Save settings"}
        </Button>
      ) : null}
    </form>
  );
}
