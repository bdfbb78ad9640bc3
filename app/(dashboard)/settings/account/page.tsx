import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { timeZoneChoices } from "@/lib/accounts/time-zone";
import { canManage, requireSession } from "@/lib/auth/session";
import { TimeZoneForm } from "./_components/time-zone-form";

export const metadata: Metadata = { title: "Account" };

export default async function AccountSettingsPage() {
  const session = await requireSession();
  return (
    <>
      <PageHeader title="Account" description={`Settings of ${session.account.name}.`} />
      <section
        aria-labelledby="time-zone-heading"
        className="max-w-2xl rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200"
      >
        <h2 id="time-zone-heading" className="text-base font-semibold text-zinc-900">
          Time zone
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          The dashboard shows times in this zone, the assistant answers in it, and recurring events repeat in it. Events
          keep the instant they start at; a series repeats at the time of day its first start has in this zone, and its
          cancelled or deleted occurrences move with it.
        </p>
        <TimeZoneForm
          current={session.account.timezone}
          zones={timeZoneChoices(session.account.timezone)}
          canManage={canManage(session)}
        />
      </section>
    </>
  );
}
