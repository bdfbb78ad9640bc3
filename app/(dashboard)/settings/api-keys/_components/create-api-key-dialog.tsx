"use client";

import { KeyRound, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import type { ActionResult } from "@/lib/actions/result";
import { createApiKeyAction, type CreatedApiKey } from "../actions";
import { CreateKeyForm } from "./create-key-form";
import { RevealKey } from "./reveal-key";

/*
 * "Create API key" and the one-time reveal share one dialog. The new key lives only in this component's
 * state: closing the dialog unmounts it (and the key with it), and only then is the list refreshed, so
 * no re-render can take the dialog away while the key is shown.
 */
export function CreateApiKeyDialog() {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const [, startTransition] = useTransition();

  const finish = () => {
    setOpen(false);
    startTransition(() => router.refresh());
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus className="size-4" aria-hidden />
          Create API key
        </Button>
      </DialogTrigger>
      {open ? <CreateKeyFlow onCancel={() => setOpen(false)} onFinished={finish} /> : null}
    </Dialog>
  );
}

function CreateKeyFlow({ onCancel, onFinished }: { onCancel: () => void; onFinished: () => void }) {
  const [state, formAction, pending] = useActionState<ActionResult<CreatedApiKey> | null, FormData>(
    createApiKeyAction,
    null,
  );
  const [confirmingClose, setConfirmingClose] = useState(false);
  const created = state?.ok ? state.data : null;

  return (
    <DialogContent
      size="lg"
      icon={<KeyRound className="size-4" aria-hidden />}
      title={created ? "Save your API key" : "Create API key"}
      description={
        created
          ? `“${created.name}” is ready. Copy the key now and store it in your integration or a password manager.`
          : "One key per integration, with only the scopes it needs."
      }
      // While the key is shown, Escape asks for confirmation and clicks outside do nothing.
      onEscapeKeyDown={(event) => {
        if (!created) return;
        event.preventDefault();
        setConfirmingClose(true);
      }}
      onInteractOutside={(event) => {
        if (created || pending) event.preventDefault();
      }}
      showClose={!created}
    >
      {created ? (
        <RevealKey
          created={created}
          confirmingClose={confirmingClose}
          onConfirmingCloseChange={setConfirmingClose}
          onClosed={onFinished}
        />
      ) : (
        <CreateKeyForm state={state} action={formAction} pending={pending} onCancel={onCancel} />
      )}
    </DialogContent>
  );
}
