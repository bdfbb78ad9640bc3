"use client";

import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { resendDeliveryAction } from "../../actions";

/** Queues a failed notification again, now, with a fresh set of retries. */
export function ResendButton({ deliveryId, type, onDone }: { deliveryId: string; type: string; onDone?: () => void }) {
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
    <Button variant="secondary" size="sm" onClick={resend} disabled={pending} aria-label={`Resend ${type} notification`}>
      <RotateCcw className="size-3.5" aria-hidden />
      {pending ? "Resending…" : "Resend"}
    </Button>
  );
}
