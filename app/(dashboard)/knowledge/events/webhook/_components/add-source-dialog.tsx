"use client";

import { Plus, Webhook } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useState } from "react";
import { toast } from "sonner";
import { Dialog, DialogContent, DialogForm, DialogTriggerButton } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { firstFieldErrors, formError } from "@/lib/actions/result";
import { createSourceAction } from "../actions";

export function AddSourceDialog({ atLimit, limit }: { atLimit: boolean; limit: number }) {
  const [open, setOpen] = useState(false);
  const [state, action, pending] = useActionState(createSourceAction, null);
  const router = useRouter();

  useEffect(() => {
    if (!state?.ok) return;
    const { source } = state.data;
    toast.success(`Source “${source.name}” created`);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- closing after the action's result arrives
    setOpen(false);
    router.push(`/knowledge/events/webhook?source=${source.publicId}`);
  }, [state, router]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTriggerButton
        variant="secondary"
        disabled={atLimit}
        title={atLimit ? `Your plan allows ${limit} sources` : undefined}
        icon={<Plus className="size-4" aria-hidden />}
      >
        Add source
      </DialogTriggerButton>
      <DialogContent
        title="Add a webhook source"
        description="Each source has its own endpoint URL and signing secret. Use one per sending system."
        icon={<Webhook className="size-4" aria-hidden />}
        size="sm"
      >
        <DialogForm
          action={action}
          error={formError(state)}
          submitLabel="Create source"
          pendingLabel="Creating…"
          pending={pending}
          onCancel={() => setOpen(false)}
        >
          <Field
            label="Source name"
            name="name"
            placeholder="e.g. Booking platform"
            maxLength={100}
            error={firstFieldErrors(state).name}
            required
            autoFocus
          />
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}
