"use client";

import { Eye, EyeOff } from "lucide-react";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClasses } from "@/components/ui/field";
import { revealSecretAction } from "../actions";

const MASK = "whsec_" + "•".repeat(32);

/**
 * The signing secret, masked until "Reveal secret". The plain secret is fetched only on request (it is
 * never part of the page's HTML) and only owners and admins may fetch it. After a rotation the parent
 * passes the new secret in, already revealed.
 */
export function SecretField({
  sourceId,
  canReveal,
  secret,
  onSecret,
}: {
  sourceId: string;
  canReveal: boolean;
  secret: string | null;
  onSecret: (secret: string | null) => void;
}) {
  const [pending, startTransition] = useTransition();
  const [visible, setVisible] = useState(Boolean(secret));
  const shown = visible && secret;

  const reveal = () =>
    startTransition(async () => {
      const result = await revealSecretAction({ sourceId });
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      onSecret(result.data.secret);
      setVisible(true);
    });

  return (
    <div className="space-y-1.5">
      <label htmlFor={`secret-${sourceId}`} className="block text-sm font-medium text-zinc-800">
        Signing secret
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`secret-${sourceId}`}
          readOnly
          value={shown ? secret : MASK}
          className={`${inputClasses} min-w-0 flex-1 font-mono`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <div className="flex shrink-0 gap-2">
          {shown ? (
            <Button variant="secondary" onClick={() => setVisible(false)}>
              <EyeOff className="size-4" aria-hidden />
              Hide secret
            </Button>
          ) : (
            <Button
              variant="secondary"
              onClick={secret ? () => setVisible(true) : reveal}
              disabled={!canReveal || pending}
            >
              <Eye className="size-4" aria-hidden />
              {pending ? "Revealing…" : "Reveal secret"}
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
        {canReveal
          ? "Keep it on the server of the system that sends events; never put it in a browser or a mobile app."
          : "Only owners and admins can see the signing secret."}
      </p>
    </div>
  );
}
