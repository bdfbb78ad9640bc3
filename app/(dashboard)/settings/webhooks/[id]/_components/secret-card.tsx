"use client";

import { Eye, EyeOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { RotateConfirm } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClasses } from "@/components/ui/field";
import { revealSubscriptionSecretAction, rotateSubscriptionSecretAction } from "../../actions";

const MASK = "whsec_" + "•".repeat(32);

/**
 * The signing secret, masked until "Reveal secret": the plain secret is fetched only on request (never
 * part of the page's HTML), only by owners and admins, and each reveal is audited. After a rotation the
 * new secret is shown at once; the page refreshes only when the user says they are done with it.
 */
export function SecretCard({
  subscriptionId,
  canManage,
  previousSecretUntil,
}: {
  subscriptionId: string;
  canManage: boolean;
  previousSecretUntil: string | null;
}) {
  const router = useRouter();
  const [secret, setSecret] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);
  const [justRotated, setJustRotated] = useState(false);
  const [revealing, startReveal] = useTransition();
  const shown = visible && secret !== null;
  const inputId = `secret-${subscriptionId}`;

  const reveal = () =>
    startReveal(async () => {
      const result = await revealSubscriptionSecretAction({ subscriptionId });
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      setSecret(result.data.secret);
      setVisible(true);
    });

  const rotate = async () => {
    const result = await rotateSubscriptionSecretAction({ subscriptionId });
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    setSecret(result.data.secret);
    setVisible(true);
    setJustRotated(true);
    toast.success("Secret rotated. Give the new secret to the receiver within 24 hours.");
  };

  const acknowledge = () => {
    setJustRotated(false);
    router.refresh();
  };

  return (
    <section aria-labelledby="signing-secret" className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200 sm:p-6">
      <h2 id="signing-secret" className="text-sm font-semibold text-zinc-900">
        Signing secret
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        Every notification carries a <code className="font-mono text-xs">webhook-signature</code> made with this secret,
        so the receiver can check that it comes from us and was not changed on the way.
      </p>
      <div className="mt-4 space-y-1.5">
        <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800">
          Signing secret
        </label>
        {/* The secret is 50 characters: it gets the card's full width, the buttons go below it. */}
        <div className="space-y-2">
          <input
            id={inputId}
            readOnly
            value={shown ? secret : MASK}
            spellCheck={false}
            className={`${inputClasses} font-mono text-xs tracking-tight`}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="flex flex-wrap gap-2">
            {shown ? (
              <Button variant="secondary" onClick={() => setVisible(false)}>
                <EyeOff className="size-4" aria-hidden />
                Hide secret
              </Button>
            ) : (
              <Button
                variant="secondary"
                onClick={secret ? () => setVisible(true) : reveal}
                disabled={!canManage || revealing}
              >
                <Eye className="size-4" aria-hidden />
                {revealing ? "Revealing…" : "Reveal secret"}
              </Button>
            )}
            <CopyButton
              value={secret ?? ""}
              disabled={!shown}
              toastMessage="Signing secret copied"
              aria-label="Copy signing secret"
            />
          </div>
        </div>
        <p className="text-xs text-zinc-500">
          {canManage
            ? "Revealing the secret is recorded in the audit log."
            : "Only owners and admins can see the signing secret."}
        </p>
      </div>

      {justRotated ? (
        <div
          role="status"
          className="mt-4 flex flex-col gap-3 rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900 ring-1 ring-indigo-200 sm:flex-row sm:items-center sm:justify-between"
        >
          <p>
            This is the new secret. For the next 24 hours notifications carry two signatures, one with each secret, so
            update the receiver now.
          </p>
          <Button size="sm" variant="secondary" onClick={acknowledge}>
            I have updated it
          </Button>
        </div>
      ) : previousSecretUntil ? (
        <p className="mt-4 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-700 ring-1 ring-zinc-200">
          Rotated recently: the previous secret also signs notifications until {previousSecretUntil}.
        </p>
      ) : null}

      {canManage ? (
        <div className="mt-5 border-t border-zinc-100 pt-5">
          <RotateConfirm
            label="Rotate secret"
            tone="primary"
            title="Rotate the signing secret?"
            description="A new secret is created and signs every notification from now on. The old secret keeps signing alongside it for 24 hours (each notification carries both signatures), so the receiver keeps working while you update it."
            onConfirm={rotate}
          />
        </div>
      ) : null}
    </section>
  );
}
