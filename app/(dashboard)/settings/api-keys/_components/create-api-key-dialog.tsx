"use client";

import { KeyRound } from "lucide-react";
import { useActionState, useState } from "react";
import { RevealOnceDialog } from "@/app/(dashboard)/_components/reveal-once-dialog";
import { DialogContent } from "@/components/ui/dialog";
import type { ActionResult } from "@/lib/actions/result";
import { createApiKeyAction, type CreatedApiKey } from "../actions";
import { CreateKeyForm } from "./create-key-form";
import { RevealKey } from "./reveal-key";

/** "Create API key" and the one-time reveal of the key share one dialog. */
export function CreateApiKeyDialog() {
  return (
    <RevealOnceDialog label="Create API key">
      {({ cancel, finish }) => <CreateKeyFlow onCancel={cancel} onFinished={finish} />}
    </RevealOnceDialog>
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
