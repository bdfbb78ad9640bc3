"use client";

import { TriangleAlert, X } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { DialogBody, DialogFooter } from "@/components/ui/dialog";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import type { CreatedApiKey } from "../actions";
import { ScopeBadges } from "./scope-badges";

// Rendered only in the browser (the dialog opens on a click), so the user's own time zone is right here.
const expiryFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

type Props = {
  created: CreatedApiKey;
  confirmingClose: boolean;
  onConfirmingCloseChange: (open: boolean) => void;
  onClosed: () => void;
};

/** The one and only display of a new key. Closing asks first, because the key cannot be shown again. */
export function RevealKey({ created, confirmingClose, onConfirmingCloseChange, onClosed }: Props) {
  const [copied, setCopied] = useState(false);
  const askToClose = () => onConfirmingCloseChange(true);

  return (
    <>
      {/* Replaces the header's close button, which would close without asking. */}
      <button
        type="button"
        onClick={askToClose}
        aria-label="Close"
        className="absolute top-4 right-4 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
      >
        <X className="size-4" aria-hidden />
      </button>
      <DialogBody>
        <div
          role="note"
          className={
            "flex gap-3 rounded-lg bg-amber-50 px-4 py-3 text-sm " + "text-amber-900 ring-1 ring-amber-200 ring-inset"
          }
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
          <p>
            <strong className="font-semibold">This key will never be shown again.</strong> We store only a fingerprint
            of it. If you lose it, revoke it and create a new one.
          </p>
        </div>

        <OneTimeSecret
          label="API key"
          value={created.secret}
          toastMessage="API key copied to clipboard"
          onCopied={() => setCopied(true)}
        />

        <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-2 text-sm">
          <dt className="text-zinc-500">Name</dt>
          <dd className="font-medium break-words text-zinc-900">{created.name}</dd>
          <dt className="text-zinc-500">Scopes</dt>
          <dd>
            <ScopeBadges scopes={created.scopes} />
          </dd>
          <dt className="text-zinc-500">Expires</dt>
          <dd className="text-zinc-900">
            {created.expiresAt ? expiryFormat.format(new Date(created.expiresAt)) : "Never (until revoked)"}
          </dd>
        </dl>
      </DialogBody>
      <DialogFooter>
        <Button onClick={askToClose}>Done</Button>
      </DialogFooter>

      <ConfirmDialog
        open={confirmingClose}
        onOpenChange={onConfirmingCloseChange}
        tone="primary"
        icon={<TriangleAlert className="size-5" aria-hidden />}
        title={copied ? "Did you store the key?" : "You have not copied the key"}
        description={
          copied
            ? "Once this dialog closes, the key cannot be shown again. " +
              "Make sure it is saved where your integration can use it."
            : "Once this dialog closes, the key cannot be shown again. " +
              "Copy it first unless you have saved it another way."
        }
        cancelLabel="Go back"
        confirmLabel="Close dialog"
        onConfirm={onClosed}
      />
    </>
  );
}
