import { UserX } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function LeadNotFound() {
  return (
    <EmptyState
      icon={<UserX className="size-6" aria-hidden />}
      title="Lead not found"
      action={
        <Link href="/leads" className={buttonClasses("primary")}>
          Back to leads
        </Link>
      }
    >
      <p>This lead does not exist in this account, or it was deleted.</p>
    </EmptyState>
  );
}
