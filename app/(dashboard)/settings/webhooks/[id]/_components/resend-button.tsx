"use client";

import { RotateCcw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { resendDeliveryAction } from "../../actions";

/**
 * Queues a notification again, now, with a fresh set of retries: "Resend" once it failed for good,
 * "Retry now" while it waits for its next scheduled retry.
 */
export function ResendButton({
  deliveryId,
  type,
  onDone,
  retry = false,
}: {
  deliveryId: string;
  type: string;
  onDone?: () => void;
  retry?: boolean;
}) {
  const { act, pending } = useAct();
  const resend = () => act(() => resendDeliveryAction({ deliveryId }), { after: onDone });
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={resend}
      disabled={pending}
      aria-label={`${retry ? "Retry" : "Resend"} ${type} notification${retry ? " now" : ""}`}
    >
      <RotateCcw className="size-3.5" aria-hidden />
      {pending ? (retry ? "Retrying…" : "Resending…") : retry ? "Retry now" : "Resend"}
    </Button>
  );
}
