import { CalendarDays } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/session";

export const metadata: Metadata = { title: "All Events" };

export default async function EventsPage() {
  await requireSession();
  return (
    <>
      <PageHeader title="All Events" description="Every event your connected systems have pushed into this account's event knowledge." />
      <EmptyState icon={<CalendarDays className="size-6" aria-hidden />} title="No events yet">
        <p>Connect your booking platform or CRM through the signed Events Webhook and events appear here in real time.</p>
        <div className="mt-6">
          <Link href="/knowledge/events/webhook" className={buttonClasses("primary")}>
            Set up the webhook
          </Link>
        </div>
      </EmptyState>
    </>
  );
}
