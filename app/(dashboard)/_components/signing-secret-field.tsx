"use client";

import { Eye, EyeOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClasses } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions/result";

const MASK = "whsec_" + "•".repeat(32);

/** The secret an action answered with, or null once its refusal is toasted. */
async function secretOf(action: () => Promise<ActionResult<{ secret: string }>>): Promise<string | null> {
  const result = await action();
  if (result.ok) return result.data.secret;
  toast.error(result.error);
  return null;
}

/**
 * The secret a card holds once revealed or rotated. After a rotation the new secret shows with
 * RotatedSecretNotice, and the page is refreshed only when the user acknowledges it, so no re-render
 * can mask the new secret first.
 */
export function useSecretRotation(rotateSecret: () => Promise<ActionResult<{ secret: string }>>, rotated: string) {
  const router = useRouter();
  const [secret, setSecret] = useState<string | null>(null);
  const [justRotated, setJustRotated] = useState(false);

  const rotate = async () => {
    const next = await secretOf(rotateSecret);
    if (next === null) return;
    setSecret(next);
    setJustRotated(true);
    toast.success(rotated);
  };

  const acknowledge = () => {
    setJustRotated(false);
    router.refresh();
  };

  return { secret, setSecret, justRotated, rotate, acknowledge };
}

/**
 * A signing secret (an inbound source's or a subscription's), masked until "Reveal secret". The plain
 * secret is fetched only on request, never part of the page's HTML. The parent holds the secret once
 * fetched (a rotation hands in the new one) and keys this field by it, so a new secret shows revealed.
 * `stacked` puts the buttons below the input, for a card too narrow for both on one line.
 */
export function SigningSecretField({
  id,
  secret,
  onSecret,
  fetchSecret,
  canReveal,
  hint,
  stacked = false,
  className,
}: {
  id: string;
  secret: string | null;
  onSecret: (secret: string) => void;
  fetchSecret: () => Promise<ActionResult<{ secret: string }>>;
  canReveal: boolean;
  hint: string;
  stacked?: boolean;
  className?: string;
}) {
  const [pending, startTransition] = useTransition();
  const [visible, setVisible] = useState(Boolean(secret));
  const shown = visible && secret !== null;

  const reveal = () =>
    startTransition(async () => {
      const revealed = await secretOf(fetchSecret);
      if (revealed === null) return;
      onSecret(revealed);
      setVisible(true);
    });

  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        Signing secret
      </label>
      <div className={stacked ? "space-y-2" : "flex flex-col gap-2 sm:flex-row"}>
        <input
          id={id}
          readOnly
          value={shown ? secret : MASK}
          spellCheck={stacked ? false : undefined}
          className={cn(inputClasses, "font-mono", stacked ? "text-xs tracking-tight" : "min-w-0 flex-1")}
          onFocus={(event) => event.currentTarget.select()}
        />
        <div className={stacked ? "flex flex-wrap gap-2" : "flex shrink-0 gap-2"}>
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
      <p className="text-xs text-zinc-500">{canReveal ? hint : "Only owners and admins can see the signing secret."}</p>
    </div>
  );
}

/** After a rotation: what the user must do with the new secret, and the button that says it is done. */
export function RotatedSecretNotice({
  onAcknowledge,
  className,
  children,
}: {
  onAcknowledge: () => void;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="status"
      className={cn(
        "flex flex-col gap-3 rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900 ring-1 ring-indigo-200",
        "sm:flex-row sm:items-center sm:justify-between",
        className,
      )}
    >
      <p>{children}</p>
      <Button size="sm" variant="secondary" onClick={onAcknowledge}>
        I have updated it
      </Button>
    </div>
  );
}
