"use client";

import { Pause, Pencil, Play, Trash2, Webhook } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import type { ActionResult } from "@/lib/actions/result";
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
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const { act, pending: switching } = useAct();

  const setEnabled = (next: boolean) => act(() => setSubscriptionEnabledAction({ subscriptionId, enabled: next }));

  const remove = async () => {
    const result = await deleteSubscriptionAction({ subscriptionId });
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    toast.success(result.data.message);
    router.replace("/settings/webhooks");
  };

  return (
    <>
      <Button variant="secondary" onClick={() => setEditing(true)}>
        <Pencil className="size-4" aria-hidden />
        Edit
      </Button>
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
          description={`Nothing is sent to ${url} while it is disabled, and changes made in the meantime are not delivered later. After re-enabling it, "Replay since…" can send what it missed.`}
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
      <ConfirmDialog
        trigger={
          <Button variant="secondary" className="text-red-600 hover:bg-red-50">
            <Trash2 className="size-4" aria-hidden />
            Delete
          </Button>
        }
        icon={<Trash2 className="size-5" aria-hidden />}
        title="Delete this subscription?"
        description={`Nothing more is sent to ${url}, and its delivery history is removed. A tool that created it (such as a Zap) stops getting notifications until it subscribes again. This cannot be undone.`}
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        onConfirm={remove}
      />
      <Dialog open={editing} onOpenChange={setEditing}>
        {editing ? (
          <EditForm
            subscriptionId={subscriptionId}
            initial={initial}
            maxDescriptionLength={maxDescriptionLength}
            onDone={() => setEditing(false)}
          />
        ) : null}
      </Dialog>
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
  const [state, action, pending] = useActionState<ActionResult<{ message: string }> | null, FormData>(
    updateSubscriptionAction,
    null,
  );

  useEffect(() => {
    if (!state?.ok) return;
    toast.success(state.data.message);
    onDone();
  }, [state, onDone]);

  return (
    <DialogContent
      size="lg"
      icon={<Webhook className="size-4" aria-hidden />}
      title="Edit subscription"
      description="Changes apply to notifications sent from now on."
    >
      <SubscriptionForm
        initial={initial}
        state={state}
        action={action}
        pending={pending}
        submitLabel="Save"
        pendingLabel="Saving…"
        maxDescriptionLength={maxDescriptionLength}
        onCancel={onDone}
        hidden={{ subscriptionId }}
      />
    </DialogContent>
  );
}
