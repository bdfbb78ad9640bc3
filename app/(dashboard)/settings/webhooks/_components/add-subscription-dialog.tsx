"use client";

import { KeyRound, Plus, Webhook } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogBody, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { inputClasses } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions/result";
import { createSubscriptionAction, type CreatedSubscription } from "../actions";
import { SubscriptionForm } from "./subscription-form";

/*
 * "Add subscription" and the reveal of its signing secret share one dialog. The secret lives only in this
 * component's state; the list is refreshed when the dialog closes, so no re-render can take the dialog
 * away while the secret is on screen.
 */
export function AddSubscriptionDialog({ maxDescriptionLength }: { maxDescriptionLength: number }) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const [, startTransition] = useTransition();

  const finish = () => {
    setOpen(false);
    startTransition(() => router.refresh());
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : finish())}>
      <DialogTrigger asChild>
        <Button>
          <Plus className="size-4" aria-hidden />
          Add subscription
        </Button>
      </DialogTrigger>
      {open ? (
        <AddFlow maxDescriptionLength={maxDescriptionLength} onCancel={() => setOpen(false)} onFinished={finish} />
      ) : null}
    </Dialog>
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
          ? "The subscription is active. Give this secret to the receiver so it can check that notifications come from us."
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
  const id = useId();
  return (
    <>
      <DialogBody>
        <dl className="grid grid-cols-[5rem_1fr] gap-x-3 text-sm">
          <dt className="text-zinc-500">URL</dt>
          <dd className="font-mono text-xs leading-5 break-all text-zinc-900">{created.url}</dd>
        </dl>
        <div className="space-y-1.5">
          <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
            Signing secret
          </label>
          <div className="flex gap-2">
            <input
              id={id}
              readOnly
              value={created.secret}
              onFocus={(event) => event.currentTarget.select()}
              spellCheck={false}
              autoComplete="off"
              className={cn(inputClasses, "bg-zinc-50 font-mono text-[0.8125rem] tracking-tight")}
            />
            <CopyButton value={created.secret} size="md" toastMessage="Signing secret copied to clipboard" />
          </div>
          <p className="text-xs text-zinc-500">
            Receivers verify the <code className="font-mono">webhook-signature</code> header with it, as any Standard
            Webhooks library does.
          </p>
        </div>
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
