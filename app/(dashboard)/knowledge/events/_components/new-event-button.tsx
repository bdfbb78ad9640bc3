"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EMPTY_EVENT, EventFormDialog } from "./event-form-dialog";

export function NewEventButton({ timezone }: { timezone: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Plus className="size-4" aria-hidden />
        New event
      </Button>
      <EventFormDialog open={open} onOpenChange={setOpen} eventId={null} initial={EMPTY_EVENT} timezone={timezone} />
    </>
  );
}
