"use client";

import { Link2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { linkConversationToLeadAction } from "../../actions";

/**
 * For owners and admins when the visitor left the email of a lead the conversation is not linked to:
 * one click links them (the agent's decision; the chat never links a claim to an existing lead).
 */
export function LinkLeadButton({ conversationId, leadId }: { conversationId: string; leadId: string }) {
  const { act, pending: linking } = useAct();
  const link = () =>
    act(() => linkConversationToLeadAction({ conversationId, leadId }), {
      unreachable: "The lead could not be linked. Check your connection and try again.",
    });

  return (
    <Button variant="secondary" size="sm" onClick={() => void link()} disabled={linking}>
      <Link2 className="size-4" aria-hidden />
      {linking ? "Linking…" : "Link to lead"}
    </Button>
  );
}
