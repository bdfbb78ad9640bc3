"use client";

import { Pause, Pencil, Play, Webhook } from "lucide-react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { DeleteAndReturn } from "@/app/(dashboard)/_components/delete-and-return";
import { DialogButton, FormDialog, useDialogFormAction } from "@/app/(dashboard)/_components/form-dialog";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { deleteSubscriptionAction, setSubscriptionEnabledAction, updateSubscriptionAction } from "../../actions";
import { SubscriptionForm, type SubscriptionFormValues } from "../../_components/subscription-form";

type Props = {
  subscriptionId: string;
  url: string;
  enabled: boolean;
  initial: SubscriptionFormValues;
  maxDescriptionLength: number;
};

/** Edit, Disable or Enable, and Delete, for owners and admins. */
export function SubscriptionActions({ subscriptionId, url, enabled, initial, maxDescriptionLength }: Props) {
  const { act, pending: switching } = useAct();

  const setEnabled = (next: boolean) => act(() => setSubscriptionEnabledAction({ subscriptionId, enabled: next }));

  return (
    <>
      <DialogButton variant="secondary" label="Edit" icon={<Pencil className="size-4" aria-hidden />}>
        {(dialog) => (
          <FormDialog
            {...dialog}
            formKey={subscriptionId}
            title="Edit subscription"
            description="Changes apply to notifications sent from now on."
            icon={<Webhook className="size-4" aria-hidden />}
          >
            {(close) => (
              <EditForm
                subscriptionId={subscriptionId}
                initial={initial}
                maxDescriptionLength={maxDescriptionLength}
                onDone={close}
              />
            )}
          </FormDialog>
        )}
      </DialogButton>
      {enabled ? (
        // Disabling loses notifications for good: say so before it happens.
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={switching}>
              <Pause className="size-4" aria-hidden />
              {switching ? "Disabling…" : "Disable"}
            </Button>
          }
          tone="primary"
          icon={<Pause className="size-5" aria-hidden />}
          title="Disable this subscription?"
          description={
            `Nothing is sent to ${url} while it is disabled, and changes made in the meantime are not ` +
            `delivered later. After re-enabling it, "Replay since…" can send what it missed.`
          }
          confirmLabel="Disable"
          pendingLabel="Disabling…"
          onConfirm={() => setEnabled(false)}
        />
      ) : (
        <Button onClick={() => setEnabled(true)} disabled={switching}>
          <Play className="size-4" aria-hidden />
          {switching ? "Enabling…" : "Enable"}
        </Button>
      )}
      <DeleteAndReturn
        title="Delete this subscription?"
        description={
          `Nothing more is sent to ${url}, and its delivery history is removed. ` +
          `A tool that created it (such as a Zap) stops getting notifications until it subscribes again. ` +
          `This cannot be undone.`
        }
        remove={() => deleteSubscriptionAction({ subscriptionId })}
        returnTo="/settings/webhooks"
      />
    </>
  );
}

function EditForm({
  subscriptionId,
  initial,
  maxDescriptionLength,
  onDone,
}: {
  subscriptionId: string;
  initial: SubscriptionFormValues;
  maxDescriptionLength: number;
  onDone: () => void;
}) {
  const { result, submit, pending } = useDialogFormAction(updateSubscriptionAction, {}, onDone);

  return (
    <SubscriptionForm
      initial={initial}
      state={result}
      action={submit}
      pending={pending}
      submitLabel="Save"
      pendingLabel="Saving…"
      maxDescriptionLength={maxDescriptionLength}
      onCancel={onDone}
      hidden={{ subscriptionId }}
    />
  );
}
