import { Webhook } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Events Webhook" };

export default async function WebhookPage() {
  await requireSession();
  return (
    <>
      <PageHeader title="Events Webhook" description="Let booking platforms, CRMs and your own backend push signed event changes into this account." />
      <EmptyState icon={<Webhook className="size-6" aria-hidden />} title="No webhook source yet">
        <p>A webhook source gives you an endpoint URL and a signing secret. Requests signed with the secret create, update, cancel or delete events.</p>
      </EmptyState>
    </>
  );
}
