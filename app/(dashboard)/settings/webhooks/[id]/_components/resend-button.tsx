"use client";

import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { resendDeliveryAction } from "../../actions";

/**
 * Queues a notification again, now, with a fresh set of retries: "Resend" once it failed for good,
 * "Retry now" while it waits for its next scheduled retry.
 */
export function ResendButton({ deliveryId, type, onDone, retry = false }: { deliveryId: string; type: string; onDone?: () => void; retry?: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const resend = () =>
    startTransition(async () => {
      const result = await resendDeliveryAction({ deliveryId });
      if (result.ok) toast.success(result.data.message);
      else toast.error(result.error);
      onDone?.();
      router.refresh();
    });
  return (
    <Button variant="secondary" size="sm" onClick={resend} disabled={pending} aria-label={`${retry ? "Retry" : "Resend"} ${type} notification${retry ? " now" : ""}`}>
      <RotateCcw className="size-3.5" aria-hidden />
      {pending ? (retry ? "Retrying…" : "Resending…") : retry ? "Retry now" : "Resend"}
    </Button>
  );
}
