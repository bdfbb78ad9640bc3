"use client";

import { Link2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { linkConversationToLeadAction } from "../../actions";

/**
 * For owners and admins when the visitor left the email of a lead the conversation is not linked to:
 * one click links them (the agent's decision; the chat never links a claim to an existing lead).
 */
export function LinkLeadButton({ conversationId, leadId }: { conversationId: string; leadId: string }) {
  const router = useRouter();
  const [linking, setLinking] = useState(false);

  const link = async () => {
    setLinking(true);
    const result = await linkConversationToLeadAction({ conversationId, leadId }).catch(() => null);
    setLinking(false);
    if (!result) {
      toast.error("The lead could not be linked. Check your connection and try again.");
      return;
    }
    if (result.ok) toast.success(result.data.message);
    else toast.error(result.error);
    router.refresh();
  };

  return (
    <Button variant="secondary" size="sm" onClick={() => void link()} disabled={linking}>
      <Link2 className="size-4" aria-hidden />
      {linking ? "Linking…" : "Link to lead"}
    </Button>
  );
}
