import { MessageSquareOff } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function ConversationNotFound() {
  return (
    <EmptyState
      icon={<MessageSquareOff className="size-6" aria-hidden />}
      title="Conversation not found"
      action={
        <Link href="/conversations" className={buttonClasses("primary")}>
          Back to conversations
        </Link>
      }
    >
      <p>This conversation does not exist in this account.</p>
    </EmptyState>
  );
}
