import { Webhook } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { PLANS } from "@/lib/accounts/plans";
import { canManage, requireSession } from "@/lib/auth/session";
import { formatMoment } from "@/lib/platform/format/date-time";
import { listSubscriptions } from "@/lib/webhook-subscriptions/lists";
import { SUBSCRIPTION_LIMITS } from "@/lib/webhook-subscriptions/model";
import { MAX_DESCRIPTION_LENGTH } from "@/lib/webhook-subscriptions/schemas";
import { AddSubscriptionDialog } from "./_components/add-subscription-dialog";
import { SubscriptionsTable, type SubscriptionRow } from "./_components/subscriptions-table";
import { eventTypeLabels, healthOf } from "./view-model";
import { ReadOnlyNote } from "@/components/ui/read-only-note";

export const metadata: Metadata = { title: "Webhooks" };

const linkClasses = "font-medium text-zinc-900 underline underline-offset-2";

export default async function WebhooksPage() {
  const context = await requireSession();
  const { account } = context;
  const manager = canManage(context);
  const limit = SUBSCRIPTION_LIMITS[account.plan];
  // The plan's limit is at most 100, the largest page, so one page holds every subscription.
  const { data } = await listSubscriptions(account.id, { limit: 100, order: "desc", cursor: null });

  // Only display fields cross to the browser; dates are formatted here in the account's time zone.
  const rows: SubscriptionRow[] = data.map((subscription) => ({
    id: subscription.id,
    url: subscription.url,
    description: subscription.description,
    events: eventTypeLabels(subscription.eventTypes),
    health: healthOf(subscription),
    lastDelivery: subscription.lastDeliveryAt ? formatMoment(subscription.lastDeliveryAt, account.timezone) : null,
    lastDeliveryOk: subscription.lastDeliveryOk,
  }));
  const addButton = manager ? <AddSubscriptionDialog maxDescriptionLength={MAX_DESCRIPTION_LENGTH} /> : null;

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          "Subscriptions tell other systems about changes in this account, " +
          "such as a new lead or an updated calendar event, by POSTing a signed notification to their URL."
        }
        actions={rows.length > 0 ? addButton : null}
      />
      {!manager ? (
        <ReadOnlyNote>
          You can view this account&apos;s subscriptions. Only owners and admins can add, change or delete them.
        </ReadOnlyNote>
      ) : null}
      {rows.length === 0 ? (
        <EmptyState
          icon={<Webhook className="size-6" aria-hidden />}
          title="No webhook subscriptions yet"
          action={addButton}
        >
          <p>
            A subscription sends a signed notification to a URL whenever something you chose happens here: a new lead, a
            lead moving stage, a calendar event changing.
          </p>
          <p className="mt-2">
            Automation tools such as Zapier create subscriptions themselves through the API when you turn on a Zap (give
            them an{" "}
            <Link href="/settings/api-keys" className={linkClasses}>
              API key
            </Link>{" "}
            with the <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs">webhooks</code> scope). You can
            also add one by hand for your own server.
          </p>
        </EmptyState>
      ) : (
        <>
          <SubscriptionsTable rows={rows} />
          <p className="mt-3 text-xs text-zinc-500">
            {rows.length} of {limit} subscriptions used on the {PLANS[account.plan].label} plan. Times in{" "}
            {account.timezone}.
          </p>
        </>
      )}
    </>
  );
}
