"use client";

import { useActionState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
import { changeTimeZoneAction } from "../actions";

type Result = ActionResult<{ timeZone: string; message: string }> | null;

/**
 * The account's time zone: a list of zones and Save for owners and admins, the zone alone for members.
 * `zones` comes from the server, which checks the choice: browsers' lists differ.
 */
export function TimeZoneForm({
  current,
  zones,
  canManage,
}: {
  current: string;
  zones: ReadonlyArray<readonly [string, string]>;
  canManage: boolean;
}) {
  const [result, submit, pending] = useActionState<Result, FormData>(async (_previous, form) => {
    try {
      const answer = await changeTimeZoneAction(form);
      if (answer.ok) toast.success(answer.data.message);
      return answer;
    } catch {
      return { ok: false, error: "The time zone could not be saved. Check your connection and try again." };
    }
  }, null);
  const saved = result?.ok ? result.data.timeZone : current;
  if (!canManage) {
    return (
      <p className="mt-4 text-sm text-zinc-800">
        <span className="font-medium">{saved}</span>
        <span className="text-zinc-500"> · Only owners and admins can change it.</span>
      </p>
    );
  }
  const error = firstFieldErrors(result).timezone;
  return (
    <form action={submit} className="mt-4 space-y-4">
      <FormAlert>{error ? null : formError(result)}</FormAlert>
      <SelectField
        label="Time zone"
        name="timezone"
        defaultValue={saved}
        key={saved}
        options={zones}
        error={error}
        className="max-w-sm"
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save time zone"}
      </Button>
    </form>
  );
}
