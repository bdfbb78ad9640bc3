"use client";

import { useActionState, useEffect } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { updateSourceSettingsAction, type SettingsState } from "../actions";

export function SourceSettingsForm({ sourceId, name, rateLimitPerMinute, canManage }: { sourceId: string; name: string; rateLimitPerMinute: number; canManage: boolean }) {
  const [state, action, pending] = useActionState<SettingsState, FormData>(updateSourceSettingsAction.bind(null, sourceId), {});
  useEffect(() => {
    if (state.ok && state.message) toast.success(state.message);
    else if (state.message) toast.error(state.message);
  }, [state]);

  return (
    <form action={action} className="space-y-4">
      <Field label="Source name" name="name" defaultValue={name} maxLength={100} error={state.fieldErrors?.name} disabled={!canManage} required />
      <Field
        label="Rate limit (requests per minute)"
        name="rateLimitPerMinute"
        type="number"
        min={1}
        max={100000}
        inputMode="numeric"
        defaultValue={rateLimitPerMinute}
        error={state.fieldErrors?.rateLimitPerMinute}
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
