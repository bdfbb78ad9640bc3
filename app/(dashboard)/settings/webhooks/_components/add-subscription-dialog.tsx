"use client";

import { KeyRound, Webhook } from "lucide-react";
import { useActionState } from "react";
import { RevealOnceDialog } from "@/app/(dashboard)/_components/reveal-once-dialog";
import { Button } from "@/components/ui/button";
import { DialogBody, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import type { ActionResult } from "@/lib/actions/result";
import { createSubscriptionAction, type CreatedSubscription } from "../actions";
import { SubscriptionForm } from "./subscription-form";

/** "Add subscription" and the one-time reveal of its signing secret share one dialog. */
export function AddSubscriptionDialog({ maxDescriptionLength }: { maxDescriptionLength: number }) {
  return (
    <RevealOnceDialog label="Add subscription">
      {({ cancel, finish }) => (
        <AddFlow maxDescriptionLength={maxDescriptionLength} onCancel={cancel} onFinished={finish} />
      )}
    </RevealOnceDialog>
  );
}

function AddFlow({
  maxDescriptionLength,
  onCancel,
  onFinished,
}: {
  maxDescriptionLength: number;
  onCancel: () => void;
  onFinished: () => void;
}) {
  const [state, formAction, pending] = useActionState<ActionResult<CreatedSubscription> | null, FormData>(
    createSubscriptionAction,
    null,
  );
  const created = state?.ok ? state.data : null;

  return (
    <DialogContent
      size="lg"
      icon={created ? <KeyRound className="size-4" aria-hidden /> : <Webhook className="size-4" aria-hidden />}
      title={created ? "Save the signing secret" : "Add subscription"}
      description={
        created
          ? "The subscription is active. Give this secret to the receiver so it " +
            "can check that notifications come from us."
          : "Notifications about the events you choose are POSTed to this URL, signed with a secret of its own."
      }
      onInteractOutside={(event) => {
        if (created || pending) event.preventDefault();
      }}
    >
      {created ? (
        <RevealSecret created={created} onDone={onFinished} />
      ) : (
        <SubscriptionForm
          initial={{ url: "", eventTypes: [], description: "" }}
          state={state}
          action={formAction}
          pending={pending}
          submitLabel="Add subscription"
          pendingLabel="Adding…"
          maxDescriptionLength={maxDescriptionLength}
          onCancel={onCancel}
        />
      )}
    </DialogContent>
  );
}

function RevealSecret({ created, onDone }: { created: CreatedSubscription; onDone: () => void }) {
  return (
    <>
      <DialogBody>
        <dl className="grid grid-cols-[5rem_1fr] gap-x-3 text-sm">
          <dt className="text-zinc-500">URL</dt>
          <dd className="font-mono text-xs leading-5 break-all text-zinc-900">{created.url}</dd>
        </dl>
        <OneTimeSecret label="Signing secret" value={created.secret} toastMessage="Signing secret copied to clipboard">
          <p className="text-xs text-zinc-500">
            Receivers verify the <code className="font-mono">webhook-signature</code> header with it, as any Standard
            Webhooks library does.
          </p>
        </OneTimeSecret>
        <p
          role="note"
          className="rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900 ring-1 ring-indigo-200 ring-inset"
        >
          Copy it now. Owners and admins can reveal it again later on the subscription&apos;s page; each reveal is
          recorded in the audit log.
        </p>
      </DialogBody>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}
