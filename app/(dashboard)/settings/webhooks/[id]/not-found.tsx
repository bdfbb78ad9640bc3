import { SearchX } from "lucide-react";
import { NotFoundState } from "@/components/ui/empty-state";

export default function SubscriptionNotFound() {
  return (
    <NotFoundState
      icon={<SearchX className="size-6" aria-hidden />}
      title="Subscription not found"
      backHref="/settings/webhooks"
      backLabel="Back to webhooks"
    >
      This subscription does not exist in this account, or it was deleted (perhaps by the tool that created it).
    </NotFoundState>
  );
}
