import { ArrowRight, KeyRound, MessagesSquare } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { requireSession } from "@/lib/auth/session";
import { readOverview } from "@/lib/overview/read";
import { chartViews } from "./_overview/chart-data";
import { DeliveriesChart } from "./_overview/deliveries-chart";
import { CardSection } from "./_overview/health-card";
import { OnboardingList, onboardingComplete } from "./_overview/onboarding-list";
import { feedCard, keyFacts, sourceCard, subscriptionCard, waitingText } from "./_overview/view-model";

export const metadata: Metadata = { title: "Overview" };

/** The dashboard's home: are the account's integrations healthy, and what needs a person now. */
export default async function OverviewPage() {
  const { account } = await requireSession();
  const overview = (await readOverview(account.id))!;
  const { now } = overview;
  const keys = keyFacts(overview.keys, account.timezone);
  return (
    <>
      <PageHeader title="Overview" description="The health of this account's integrations, and what needs you." />
      <div className="space-y-8">
        {onboardingComplete(overview.onboarding) ? null : <OnboardingList onboarding={overview.onboarding} />}
        <DeliveriesChart views={chartViews(overview.hours, account.timezone)} timeZone={account.timezone} />
        <CardSection
          id="overview-sources"
          title="Webhook sources"
          cards={overview.sources.map((source) => sourceCard(source, now))}
          empty={
            <Link href="/knowledge/events/webhook" className="font-medium text-indigo-700 hover:underline">
              Add a webhook source
            </Link>
          }
        />
        {overview.feeds.length > 0 ? (
          <CardSection
            id="overview-feeds"
            title="Calendar feeds"
            cards={overview.feeds.map((feed) => feedCard(feed, now))}
            empty={null}
          />
        ) : null}
        <CardSection
          id="overview-subscriptions"
          title="Subscriptions"
          cards={overview.subscriptions.map((subscription) => subscriptionCard(subscription, now, account.timezone))}
          empty={
            <>
              No subscription yet.{" "}
              <Link href="/settings/webhooks" className="font-medium text-indigo-700 hover:underline">
                Add a subscription
              </Link>{" "}
              to have changes sent to your systems.
            </>
          }
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <section aria-labelledby="overview-keys" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-zinc-200">
            <h2 id="overview-keys" className="flex items-center gap-2 text-base font-semibold text-zinc-900">
              <KeyRound className="size-4 text-zinc-400" aria-hidden /> API keys
            </h2>
            <p className="mt-2 text-sm text-zinc-700">{keys.summary}</p>
            {keys.expiring.length > 0 ? (
              <ul className="mt-2 space-y-1 text-sm text-amber-900">
                {keys.expiring.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : null}
            <SectionLink
              href="/settings/api-keys"
              label={keys.expiring.length > 0 ? "Replace expiring keys" : "Manage keys"}
            />
          </section>
          <section
            aria-labelledby="overview-conversations"
            className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-zinc-200"
          >
            <h2 id="overview-conversations" className="flex items-center gap-2 text-base font-semibold text-zinc-900">
              <MessagesSquare className="size-4 text-zinc-400" aria-hidden /> Conversations
            </h2>
            <p className="mt-2 text-sm text-zinc-700">{waitingText(overview.waitingForPerson)}</p>
            <SectionLink
              href={overview.waitingForPerson > 0 ? "/conversations?tab=needs-person" : "/conversations"}
              label={overview.waitingForPerson > 0 ? "Open the inbox" : "Inbox"}
            />
          </section>
        </div>
      </div>
    </>
  );
}

function SectionLink({ href, label }: { href: string; label: string }) {
  return (
    <Link
      href={href}
      className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline"
    >
      {label}
      <ArrowRight className="size-3.5" aria-hidden />
    </Link>
  );
}
