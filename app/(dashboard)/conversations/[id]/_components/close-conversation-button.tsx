"use client";

import { CircleCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { closeConversationAction } from "../../actions";

/** For owners and admins while the conversation is open. The dialog starts on Cancel; Escape cancels. */
export function CloseConversationButton({ conversationId, visitor }: { conversationId: string; visitor: string }) {
  const router = useRouter();
  const close = async () => {
    const result = await closeConversationAction({ conversationId }).catch(() => null);
    if (!result) {
      toast.error("The conversation could not be closed. Check your connection and try again.");
      return;
    }
    if (result.ok) toast.success(result.data.message);
    else toast.error(result.error);
    router.refresh();
  };
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary">
          <CircleCheck className="size-4" aria-hidden />
          Close conversation
        </Button>
      }
      tone="primary"
      icon={<CircleCheck className="size-5" aria-hidden />}
      title={`Close the conversation with ${visitor}?`}
      description="The visitor sees that the conversation was closed and can start a new one. Nobody can reply here after closing."
      confirmLabel="Close"
      pendingLabel="Closing…"
      onConfirm={close}
    />
  );
}
