"use client";

import { History } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogBody,
  DialogContent,
  FormDialogFooter,
  DialogTrigger,
  dialogFormClasses,
} from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
import { replaySinceAction } from "../../actions";

/**
 * "Replay since…": every notification this subscription was sent since a moment (in the account's time
 * zone) is queued again, delivered ones included; receivers drop duplicates by webhook-id.
 */
export function ReplayDialog({
  subscriptionId,
  timezone,
  defaultSince,
  oldest,
}: {
  subscriptionId: string;
  timezone: string;
  defaultSince: string;
  oldest: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary">
          <History className="size-4" aria-hidden />
          Replay since…
        </Button>
      </DialogTrigger>
      {open ? (
        <ReplayForm
          subscriptionId={subscriptionId}
          timezone={timezone}
          defaultSince={defaultSince}
          oldest={oldest}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </Dialog>
  );
}

function ReplayForm({
  subscriptionId,
  timezone,
  defaultSince,
  oldest,
  onDone,
}: {
  subscriptionId: string;
  timezone: string;
  defaultSince: string;
  oldest: string;
  onDone: () => void;
}) {
  const router = useRouter();
  const [state, action, pending] = useActionState<ActionResult<{ message: string }> | null, FormData>(
    replaySinceAction,
    null,
  );
  const [since, setSince] = useState(defaultSince);

  useEffect(() => {
    if (!state?.ok) return;
    toast.success(state.data.message);
    onDone();
    router.refresh();
  }, [state, onDone, router]);

  return (
    <DialogContent
      size="sm"
      icon={<History className="size-4" aria-hidden />}
      title="Replay notifications"
      description="Sends this subscription's notifications again, from the moment you choose until now, for example after the receiver was down."
    >
      <form action={action} className={dialogFormClasses} noValidate>
        <input type="hidden" name="subscriptionId" value={subscriptionId} />
        <DialogBody>
          <FormAlert>{formError(state)}</FormAlert>
          <Field
            label="Since"
            name="since"
            type="datetime-local"
            value={since}
            min={oldest}
            onChange={(event) => setSince(event.target.value)}
            hint={`In ${timezone}. Notifications of the last 30 days can be replayed; delivered ones are sent again too (receivers drop duplicates by webhook-id).`}
            error={firstFieldErrors(state).since}
            required
          />
        </DialogBody>
        <FormDialogFooter submitLabel="Replay" pendingLabel="Replaying…" pending={pending} onCancel={onDone} />
      </form>
    </DialogContent>
  );
}
