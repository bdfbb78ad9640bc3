"use client";

import { useState } from "react";
import { DialogBody, FormDialogFooter, dialogFormClasses } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useFieldErrors } from "@/app/(dashboard)/_components/use-field-errors";
import { formError, type ActionResult } from "@/lib/actions/result";
import { EventTypesField } from "./event-types-field";

export type SubscriptionFormValues = { url: string; eventTypes: string[]; description: string };

type FormField = "url" | "eventTypes" | "description";

type Props = {
  initial: SubscriptionFormValues;
  state: ActionResult<unknown> | null;
  action: (form: FormData) => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  maxDescriptionLength: number;
  onCancel: () => void;
  /** Hidden fields, e.g. the subscription's id when editing. */
  hidden?: Record<string, string>;
};

/** URL, event types and description; used by "Add subscription" and "Edit". */
export function SubscriptionForm({
  initial,
  state,
  action,
  pending,
  submitLabel,
  pendingLabel,
  maxDescriptionLength,
  onCancel,
  hidden = {},
}: Props) {
  // Controlled: React resets uncontrolled fields after a form action, which would wipe what the user
  // typed when the server answers with field errors.
  const [url, setUrl] = useState(initial.url);
  const [eventTypes, setEventTypes] = useState<ReadonlySet<string>>(new Set(initial.eventTypes));
  const [description, setDescription] = useState(initial.description);
  const { errors, markEdited, bind } = useFieldErrors<FormField>(state);

  return (
    <form action={action} className={dialogFormClasses} noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <DialogBody>
        <FormAlert>{formError(state)}</FormAlert>
        <Field
          label="URL"
          {...bind("url", url, setUrl)}
          type="url"
          inputMode="url"
          placeholder="https://hooks.example.com/incoming"
          hint="Where notifications are POSTed: an https address on the public internet."
          autoComplete="off"
          spellCheck={false}
          className="[&_input]:font-mono"
          required
          autoFocus
        />
        <EventTypesField
          value={eventTypes}
          onChange={(next) => {
            setEventTypes(next);
            markEdited("eventTypes");
          }}
          error={errors.eventTypes}
        />
        <Field
          label="Description (optional)"
          {...bind("description", description, setDescription)}
          maxLength={maxDescriptionLength}
          placeholder="e.g. Zapier: new leads to Slack"
          hint="A note for people: which tool or Zap uses this URL."
          autoComplete="off"
        />
      </DialogBody>
      <FormDialogFooter submitLabel={submitLabel} pendingLabel={pendingLabel} pending={pending} onCancel={onCancel} />
    </form>
  );
}
