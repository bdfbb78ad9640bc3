"use client";

import {
  RotatedSecretNotice,
  SigningSecretField,
  useSecretRotation,
} from "@/app/(dashboard)/_components/signing-secret-field";
import { RotateConfirm } from "@/components/ui/alert-dialog";
import { Card } from "@/components/ui/detail-card";
import { revealSubscriptionSecretAction, rotateSubscriptionSecretAction } from "../../actions";

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
  const { secret, setSecret, justRotated, rotate, acknowledge } = useSecretRotation(
    () => rotateSubscriptionSecretAction({ subscriptionId }),
    "Secret rotated. Give the new secret to the receiver within 24 hours.",
  );

  return (
    <Card
      id="signing-secret"
      title="Signing secret"
      description={
        <>
          Every notification carries a <code className="font-mono text-xs">webhook-signature</code> made with this
          secret, so the receiver can check that it comes from us and was not changed on the way.
        </>
      }
    >
      {/* The secret is 50 characters: it gets the card's full width, the buttons go below it. */}
      <SigningSecretField
        key={secret ?? "masked"}
        id={`secret-${subscriptionId}`}
        secret={secret}
        onSecret={setSecret}
        fetchSecret={() => revealSubscriptionSecretAction({ subscriptionId })}
        canReveal={canManage}
        hint="Revealing the secret is recorded in the audit log."
        stacked
        className="mt-4"
      />

      {justRotated ? (
        <RotatedSecretNotice onAcknowledge={acknowledge} className="mt-4">
          This is the new secret. For the next 24 hours notifications carry two signatures, one with each secret, so
          update the receiver now.
        </RotatedSecretNotice>
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
            description={
              "A new secret is created and signs every notification from now on. " +
              "The old secret keeps signing alongside it for 24 hours (each notification carries " +
              "both signatures), so the receiver keeps working while you update it."
            }
            onConfirm={rotate}
          />
        </div>
      ) : null}
    </Card>
  );
}
