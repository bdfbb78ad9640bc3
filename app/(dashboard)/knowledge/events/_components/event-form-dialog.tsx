"use client";

import { CalendarPlus, Pencil } from "lucide-react";
import { DialogBody, FormDialogFooter, dialogFormClasses } from "@/components/ui/dialog";
import { Field, SelectField, TextAreaField } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { FormDialog, useDialogFormAction } from "@/app/(dashboard)/_components/form-dialog";
import { saveEventAction } from "../actions";

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
  const { submit, pending, values, errors, formError } = useDialogFormAction(saveEventAction, initial, onDone);

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
          <SelectField
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
          <SelectField
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
        <TextAreaField
          label="Description"
          name="description"
          rows={3}
          maxLength={5000}
          defaultValue={values.description}
          error={errors.description}
        />
        <FormAlert>{formError}</FormAlert>
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
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      formKey={eventId ?? "new"}
      title={eventId ? "Edit event" : "New event"}
      description="The same rules as the webhook apply: title, start time and location identify an event."
      icon={eventId ? <Pencil className="size-4" aria-hidden /> : <CalendarPlus className="size-4" aria-hidden />}
    >
      {(close) => <EventForm eventId={eventId} initial={initial} timezone={timezone} onDone={close} />}
    </FormDialog>
  );
}
