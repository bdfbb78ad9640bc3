import { SearchX } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function SubscriptionNotFound() {
  return (
    <EmptyState
      icon={<SearchX className="size-6" aria-hidden />}
      title="Subscription not found"
      action={
        <Link href="/settings/webhooks" className={buttonClasses("primary")}>
          Back to webhooks
        </Link>
      }
    >
      <p>This subscription does not exist in this account, or it was deleted (perhaps by the tool that created it).</p>
    </EmptyState>
  );
}
