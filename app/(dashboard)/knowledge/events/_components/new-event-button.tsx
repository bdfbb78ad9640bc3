"use client";

import { Plus } from "lucide-react";
import { DialogButton } from "@/app/(dashboard)/_components/form-dialog";
import { EMPTY_EVENT, EventFormDialog } from "./event-form-dialog";

export function NewEventButton({ timezone }: { timezone: string }) {
  return (
    <DialogButton label="New event" icon={<Plus className="size-4" aria-hidden />}>
      {(dialog) => <EventFormDialog {...dialog} eventId={null} initial={EMPTY_EVENT} timezone={timezone} />}
    </DialogButton>
  );
}
