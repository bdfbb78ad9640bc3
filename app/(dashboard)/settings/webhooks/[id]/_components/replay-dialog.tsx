"use client";

import { History } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DialogButton, FormDialog, useDialogFormAction } from "@/app/(dashboard)/_components/form-dialog";
import { DialogBody, FormDialogFooter, dialogFormClasses } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
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
  const router = useRouter();
  return (
    <DialogButton variant="secondary" label="Replay since…" icon={<History className="size-4" aria-hidden />}>
      {(dialog) => (
        <FormDialog
          {...dialog}
          formKey="replay"
          size="sm"
          title="Replay notifications"
          description={
            "Sends this subscription's notifications again, " +
            "from the moment you choose until now, for example after the receiver was down."
          }
          icon={<History className="size-4" aria-hidden />}
        >
          {(close) => (
            <ReplayForm
              subscriptionId={subscriptionId}
              timezone={timezone}
              defaultSince={defaultSince}
              oldest={oldest}
              onCancel={close}
              onDone={() => {
                close();
                router.refresh();
              }}
            />
          )}
        </FormDialog>
      )}
    </DialogButton>
  );
}

function ReplayForm({
  subscriptionId,
  timezone,
  defaultSince,
  oldest,
  onCancel,
  onDone,
}: {
  subscriptionId: string;
  timezone: string;
  defaultSince: string;
  oldest: string;
  onCancel: () => void;
  onDone: () => void;
}) {
  const { submit, pending, errors, formError } = useDialogFormAction(replaySinceAction, {}, onDone);
  const [since, setSince] = useState(defaultSince);

  return (
    <form action={submit} className={dialogFormClasses} noValidate>
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      <DialogBody>
        <FormAlert>{formError}</FormAlert>
        <Field
          label="Since"
          name="since"
          type="datetime-local"
          value={since}
          min={oldest}
          onChange={(event) => setSince(event.target.value)}
          hint={
            `In ${timezone}. Notifications of the last 30 days can be replayed; ` +
            `delivered ones are sent again too (receivers drop duplicates by webhook-id).`
          }
          error={errors.since}
          required
        />
      </DialogBody>
      <FormDialogFooter submitLabel="Replay" pendingLabel="Replaying…" pending={pending} onCancel={onCancel} />
    </form>
  );
}
