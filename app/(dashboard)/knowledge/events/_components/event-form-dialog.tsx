"use client";

import { CalendarPlus, Pencil } from "lucide-react";
import { useActionState, useEffect, useId } from "react";
import { toast } from "sonner";
import { Dialog, DialogBody, DialogContent, FormDialogFooter, dialogFormClasses } from "@/components/ui/dialog";
import { Field, inputClasses } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
import { saveEventAction } from "../actions";

/** The action's answer, with what was sent: the form shows it again after a refusal. */
type EventFormState = { result: ActionResult<{ message: string }> | null; values?: Partial<EventFormValues> };

export type EventFormValues = {
  title: string;
  starts_at: string;
  ends_at: string;
  location: string;
  price: string;
  url: string;
  recurring: string;
  status: string;
  description: string;
};

export const EMPTY_EVENT: EventFormValues = {
  title: "",
  starts_at: "",
  ends_at: "",
  location: "",
  price: "",
  url: "",
  recurring: "",
  status: "upcoming",
  description: "",
};

function Select({
  label,
  name,
  defaultValue,
  options,
  error,
}: {
  label: string;
  name: string;
  defaultValue: string;
  options: Array<[string, string]>;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        className={inputClasses}
        aria-invalid={error ? true : undefined}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {error ? <p className="text-xs font-medium text-red-600">{error}</p> : null}
    </div>
  );
}

function EventForm({
  eventId,
  initial,
  timezone,
  onDone,
}: {
  eventId: string | null;
  initial: EventFormValues;
  timezone: string;
  onDone: () => void;
}) {
  const [state, submit, pending] = useActionState<EventFormState, FormData>(
    async (_previous, form) => ({
      result: await saveEventAction(form),
      values: Object.fromEntries(form) as Partial<EventFormValues>,
    }),
    { result: null },
  );
  const descriptionId = useId();
  const values = { ...initial, ...state.values };
  const errors = firstFieldErrors(state.result);

  useEffect(() => {
    if (!state.result?.ok) return;
    toast.success(state.result.data.message);
    onDone();
  }, [state, onDone]);

  return (
    <form action={submit} className={dialogFormClasses} noValidate>
      {eventId ? <input type="hidden" name="eventId" value={eventId} /> : null}
      <DialogBody>
        <Field
          label="Title"
          name="title"
          defaultValue={values.title}
          error={errors.title}
          maxLength={300}
          required
          autoFocus
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Starts"
            name="starts_at"
            type="datetime-local"
            defaultValue={values.starts_at}
            error={errors.starts_at}
            hint={`Time zone: ${timezone}`}
            required
          />
          <Field
            label="Ends"
            name="ends_at"
            type="datetime-local"
            defaultValue={values.ends_at}
            error={errors.ends_at}
            hint="Optional"
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Location"
            name="location"
            defaultValue={values.location}
            error={errors.location}
            maxLength={500}
            placeholder="City, address or venue"
          />
          <Field
            label="Price"
            name="price"
            defaultValue={values.price}
            error={errors.price}
            maxLength={100}
            placeholder="e.g. €25 or Free"
          />
        </div>
        <Field label="URL" name="url" type="url" defaultValue={values.url} error={errors.url} placeholder="https://…" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            label="Recurring"
            name="recurring"
            defaultValue={values.recurring}
            error={errors.recurring}
            options={[
              ["", "Does not repeat"],
              ["daily", "Daily"],
              ["weekly", "Weekly"],
              ["monthly", "Monthly"],
              ["yearly", "Yearly"],
            ]}
          />
          <Select
            label="Status"
            name="status"
            defaultValue={values.status || "upcoming"}
            error={errors.status}
            options={[
              ["upcoming", "Upcoming"],
              ["cancelled", "Cancelled"],
            ]}
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={descriptionId} className="block text-sm font-medium text-zinc-800">
            Description
          </label>
          <textarea
            id={descriptionId}
            name="description"
            rows={3}
            maxLength={5000}
            defaultValue={values.description}
            className={inputClasses}
          />
          {errors.description ? <p className="text-xs font-medium text-red-600">{errors.description}</p> : null}
        </div>
        <FormAlert>{formError(state.result)}</FormAlert>
      </DialogBody>
      <FormDialogFooter
        submitLabel={eventId ? "Save event" : "Create event"}
        pendingLabel="Saving…"
        pending={pending}
        onCancel={onDone}
      />
    </form>
  );
}

export function EventFormDialog({
  open,
  onOpenChange,
  eventId,
  initial,
  timezone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  eventId: string | null;
  initial: EventFormValues;
  timezone: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={eventId ? "Edit event" : "New event"}
        description="The same rules as the webhook apply: title, start time and location identify an event."
        icon={eventId ? <Pencil className="size-4" aria-hidden /> : <CalendarPlus className="size-4" aria-hidden />}
        size="lg"
      >
        {/* Remounting per opening resets the form's action state. */}
        {open ? (
          <EventForm
            key={eventId ?? "new"}
            eventId={eventId}
            initial={initial}
            timezone={timezone}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
