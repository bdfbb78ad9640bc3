"use client";

import { CalendarPlus } from "lucide-react";
import { Field, SelectField, TextAreaField } from "@/components/ui/field";
import type { DialogState } from "@/app/(dashboard)/_components/form-dialog";
import { RecordFormDialog } from "@/app/(dashboard)/_components/record-form-dialog";
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

export function EventFormDialog({
  eventId,
  initial,
  timezone,
  ...dialog
}: DialogState & { eventId: string | null; initial: EventFormValues; timezone: string }) {
  return (
    <RecordFormDialog
      {...dialog}
      noun="event"
      createIcon={<CalendarPlus className="size-4" aria-hidden />}
      idField="eventId"
      recordId={eventId}
      action={saveEventAction}
      initial={initial}
      description="The same rules as the webhook apply: title, start time and location identify an event."
    >
      {({ field, values }) => (
        <>
          <Field label="Title" {...field("title")} maxLength={300} required autoFocus />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Starts"
              {...field("starts_at")}
              type="datetime-local"
              hint={`Time zone: ${timezone}`}
              required
            />
            <Field label="Ends" {...field("ends_at")} type="datetime-local" hint="Optional" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Location" {...field("location")} maxLength={500} placeholder="City, address or venue" />
            <Field label="Price" {...field("price")} maxLength={100} placeholder="e.g. €25 or Free" />
          </div>
          <Field label="URL" type="url" {...field("url")} placeholder="https://…" />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Recurring"
              {...field("recurring")}
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
              {...field("status")}
              defaultValue={values.status || "upcoming"}
              options={[
                ["upcoming", "Upcoming"],
                ["cancelled", "Cancelled"],
              ]}
            />
          </div>
          <TextAreaField label="Description" {...field("description")} rows={3} maxLength={5000} />
        </>
      )}
    </RecordFormDialog>
  );
}
