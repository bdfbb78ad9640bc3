"use client";

import { CalendarPlus } from "lucide-react";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionState, useContext, useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogTrigger,
  FormDialogFooter,
  dialogFormClasses,
} from "@/components/ui/dialog";
import { Field, inputClasses } from "@/components/ui/field";
import { firstFieldErrors, formError as formErrorOf, type ActionResult } from "@/lib/actions/result";
import { FEED_LIMITS } from "@/lib/calendar-feeds/model";
import { addCalendarFeedAction } from "../actions";
import { ReloadFeeds } from "./use-feeds";

const INTERVALS: Array<[number, string]> = [
  [5, "Every 5 minutes"],
  [15, "Every 15 minutes"],
  [30, "Every 30 minutes"],
  [60, "Every hour"],
  [360, "Every 6 hours"],
  [1440, "Once a day"],
];

/** "Add calendar feed": a name, the feed's https URL and how often to sync it. */
export function AddFeedDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <CalendarPlus className="size-4" aria-hidden />
          Add calendar feed
        </Button>
      </DialogTrigger>
      {open ? <AddFeedForm onDone={() => setOpen(false)} /> : null}
    </Dialog>
  );
}

function AddFeedForm({ onDone }: { onDone: () => void }) {
  const reload = useContext(ReloadFeeds);
  const [state, formAction, pending] = useActionState<ActionResult<{ message: string }> | null, FormData>(
    addCalendarFeedAction,
    null,
  );
  // Controlled fields: React resets uncontrolled ones after a form action, which would wipe what was typed.
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [interval, setSyncInterval] = useState(String(FEED_LIMITS.defaultInterval));
  const errors = firstFieldErrors(state);
  const formError = formErrorOf(state);

  useEffect(() => {
    if (!state?.ok) return;
    toast.success(state.data.message);
    onDone();
    void reload();
  }, [state, onDone, reload]);

  return (
    <DialogContent
      size="lg"
      icon={<CalendarPlus className="size-4" aria-hidden />}
      title="Add calendar feed"
      description={
        "Paste the iCalendar (.ics) address of a Google, " +
        "Outlook or booking-system calendar. Its events are kept in sync here."
      }
      onInteractOutside={(event) => {
        if (pending) event.preventDefault();
      }}
    >
      <form action={formAction} className={dialogFormClasses} noValidate>
        <DialogBody>
          <FormAlert>{errors.url ? null : formError}</FormAlert>
          <Field
            label="Name"
            name="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={FEED_LIMITS.name}
            placeholder="e.g. Studio timetable"
            error={errors.name}
            required
          />
          <Field
            label="Feed URL"
            name="url"
            type="url"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://calendar.example.com/events.ics"
            hint={
              "In Google Calendar: Settings → your calendar → Secret address " +
              "in iCal format. webcal:// links work too."
            }
            error={errors.url}
            required
          />
          <div className="space-y-1.5">
            <label htmlFor="feed-interval" className="block text-sm font-medium text-zinc-800">
              Sync
            </label>
            <select
              id="feed-interval"
              name="intervalMinutes"
              value={interval}
              onChange={(event) => setSyncInterval(event.target.value)}
              className={inputClasses}
            >
              {INTERVALS.map(([minutes, label]) => (
                <option key={minutes} value={minutes}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </DialogBody>
        <FormDialogFooter submitLabel="Add feed" pendingLabel="Checking the URL…" pending={pending} />
      </form>
    </DialogContent>
  );
}
