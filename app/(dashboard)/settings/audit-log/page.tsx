import { ScrollText } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage() {
  await requireSession();
  return (
    <>
      <PageHeader title="Audit log" description="Who created or revoked keys and changed webhook sources, and when." />
      <EmptyState icon={<ScrollText className="size-6" aria-hidden />} title="Nothing recorded yet">
        <p>Creating and revoking API keys, and creating, switching or rotating webhook sources, are recorded here.</p>
      </EmptyState>
    </>
  );
}
