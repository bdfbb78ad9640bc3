"use client";

import { Send } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { Button } from "@/components/ui/button";
import { sendTestNotificationAction } from "../../actions";

/** Queues a "test" notification to this subscription; the page refreshes a few times to show its attempt. */
export function TestNotificationButton({ subscriptionId, disabled }: { subscriptionId: string; disabled: boolean }) {
  const router = useRouter();
  const { act, pending } = useAct();
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const send = () =>
    act(() => sendTestNotificationAction({ subscriptionId }), {
      after: (result) => {
        if (!result.ok) return;
        // The worker delivers it within moments; show its attempt without a manual reload.
        timers.current = [1_500, 4_000, 10_000].map((ms) => setTimeout(() => router.refresh(), ms));
      },
    });

  return (
    <Button
      variant="secondary"
      onClick={send}
      disabled={disabled || pending}
      title={disabled ? "Enable the subscription to send a test notification" : undefined}
    >
      <Send className="size-4" aria-hidden />
      {pending ? "Sending…" : "Send test notification"}
    </Button>
  );
}
