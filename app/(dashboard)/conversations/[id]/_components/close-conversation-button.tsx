"use client";

import { CircleCheck } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTriggerButton } from "@/components/ui/dialog";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { closeConversationAction } from "../../actions";

/**
 * For owners and admins while the conversation is open: "Close conversation" asks first, in a dialog
 * whose confirm button has the same name. Focus starts on Cancel; Escape cancels.
 */
export function CloseConversationButton({ conversationId, visitor }: { conversationId: string; visitor: string }) {
  const [open, setOpen] = useState(false);
  const { act, pending: closing } = useAct();

  const close = () =>
    act(() => closeConversationAction({ conversationId }), {
      unreachable: "The conversation could not be closed. Check your connection and try again.",
      after: () => setOpen(false),
    });

  return (
    <Dialog open={open} onOpenChange={(next) => (closing ? undefined : setOpen(next))}>
      <DialogTriggerButton variant="secondary" icon={<CircleCheck className="size-4" aria-hidden />}>
        Close conversation
      </DialogTriggerButton>
      <DialogContent
        size="sm"
        showClose={false}
        icon={<CircleCheck className="size-5" aria-hidden />}
        title={`Close the conversation with ${visitor}?`}
        description={
          "The visitor sees that the conversation was closed and can start a " +
          "new one. Nobody can reply here after closing."
        }
      >
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary" disabled={closing}>
              Cancel
            </Button>
          </DialogClose>
          <Button onClick={() => void close()} disabled={closing}>
            {closing ? "Closing…" : "Close conversation"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
