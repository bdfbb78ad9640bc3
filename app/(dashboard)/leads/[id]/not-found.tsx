import { UserX } from "lucide-react";
import { NotFoundState } from "@/components/ui/empty-state";

export default function LeadNotFound() {
  return (
    <NotFoundState
      icon={<UserX className="size-6" aria-hidden />}
      title="Lead not found"
      backHref="/leads"
      backLabel="Back to leads"
    >
      This lead does not exist in this account, or it was deleted.
    </NotFoundState>
  );
}
