import { KeyRound } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/session";

export const metadata: Metadata = { title: "API Keys" };

export default async function ApiKeysPage() {
  await requireSession();
  return (
    <>
      <PageHeader title="API Keys" description="Keys let automation tools and custom integrations act on this account, limited to the scopes you choose." />
      <EmptyState icon={<KeyRound className="size-6" aria-hidden />} title="No API keys yet">
        <p>Create one key per integration, with only the scopes it needs. The full key is shown once, when you create it.</p>
      </EmptyState>
    </>
  );
}
