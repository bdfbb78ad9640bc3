import { MessageSquareOff } from "lucide-react";
import { NotFoundState } from "@/components/ui/empty-state";

export default function ConversationNotFound() {
  return (
    <NotFoundState
      icon={<MessageSquareOff className="size-6" aria-hidden />}
      title="Conversation not found"
      backHref="/conversations"
      backLabel="Back to conversations"
    >
      This conversation does not exist in this account.
    </NotFoundState>
  );
}
