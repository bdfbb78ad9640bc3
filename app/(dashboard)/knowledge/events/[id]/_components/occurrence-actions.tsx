"use client";

import { Ban, RotateCcw, Trash2 } from "lucide-react";
import { useState } from "react";
import { IconConfirm } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { removeOccurrenceAction, restoreOccurrenceAction } from "../../actions";

/*
 * Owners' and admins' controls on an event's page: remove one occurrence of a series (cancel or delete
 * it, each behind a confirmation) and restore a removed one. `label` is the occurrence as the page shows
 * it ("Sat 5 Dec, 09:00"); `occursAt` its start as ISO 8601, which the action checks is an occurrence.
 */

type Occurrence = { eventId: string; title: string; occursAt: string; label: string };

const RESTORABLE = "The assistant and the lists stop offering it; you can restore it under Exceptions.";

const REMOVALS = [
  {
    kind: "cancelled",
    verb: "Cancel",
    pending: "Cancelling…",
    done: "is cancelled; the rest of the series stays",
    Icon: Ban,
  },
  {
    kind: "deleted",
    verb: "Delete",
    pending: "Deleting…",
    done: "is deleted from the series; the rest of it stays",
    Icon: Trash2,
  },
] as const;

export function RemoveOccurrenceButtons({ eventId, title, occursAt, label }: Occurrence) {
  const run = useAct().act;
  return (
    <div className="-mr-2 flex shrink-0 gap-0.5">
      {REMOVALS.map(({ kind, verb, pending, done, Icon }) => (
        <IconConfirm
          key={kind}
          Icon={Icon}
          label={`${verb} ${label}`}
          title={`${verb} this occurrence?`}
          description={`“${title}” on ${label} ${done}. ${RESTORABLE}`}
          confirmLabel={`${verb} this occurrence`}
          pendingLabel={pending}
          cancelLabel="Keep it"
          onConfirm={() => run(() => removeOccurrenceAction({ eventId, occursAt, kind }))}
        />
      ))}
    </div>
  );
}

export function RestoreOccurrenceButton({ eventId, occursAt, label }: Omit<Occurrence, "title">) {
  const run = useAct().act;
  const [pending, setPending] = useState(false);
  const restore = async () => {
    setPending(true);
    try {
      await run(() => restoreOccurrenceAction({ eventId, occursAt }));
    } finally {
      setPending(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" aria-label={`Restore ${label}`} disabled={pending} onClick={restore}>
      <RotateCcw className="size-4" aria-hidden />
      {pending ? "Restoring…" : "Restore"}
    </Button>
  );
}
