import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { BackLink, Card, DetailRow } from "@/components/ui/detail-card";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { MAX_DESCRIPTION_LENGTH } from "@/lib/webhook-subscriptions/schemas";
import { markNoticesOpened } from "@/lib/notices/open";
import { listDeliveryAttempts } from "@/lib/outbound/manage";
import { currentFailureRun } from "@/lib/webhook-subscriptions/failure-run";
import { getSubscription } from "@/lib/webhook-subscriptions/store";
import { eventTypeLabels, HEALTH_BADGES, urlHost } from "../view-model";
import { DeliveryAttemptsSection } from "./_components/delivery-attempts-section";
import { HealthNoticeCard } from "./_components/health-notice";
import { SecretCard } from "./_components/secret-card";
import { SubscriptionActions } from "./_components/subscription-actions";
import { healthNotice } from "./health";
import { none } from "@/components/ui/none";

export const metadata: Metadata = { title: "Webhook subscription" };

type Param = string | string[] | undefined;
type SearchParams = Promise<{ attempts?: Param; q?: Param; from?: Param; to?: Param }>;

const first = (value: Param) => (Array.isArray(value) ? value[0] : value);

export default async function SubscriptionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: SearchParams;
}) {
  const context = await requireSession();
  const { account } = context;
  const { id } = await params;
  const query = await searchParams;
  const cursor = first(query.attempts) ?? null;
  const filters = { search: first(query.q), from: first(query.from), to: first(query.to) };
  const subscription = await getSubscription(account.id, id);
  if (!subscription) notFound();
  const [attempts, run] = await Promise.all([
    listDeliveryAttempts(account.id, subscription.id, { ...filters, timeZone: account.timezone, limit: 20, cursor }),
    currentFailureRun(account.id, subscription),
  ]);
  const manager = canManage(context);
  // An owner has opened the problem: its banner goes.
  if (manager) await markNoticesOpened(account.id, "subscription_disabled", subscription.id);
  const now = new Date();
  const notice = healthNotice(subscription, run, account.timezone, now);
  const badge = HEALTH_BADGES[notice.health];
  const previousSecretUntil =
    subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now
      ? formatDateTime(subscription.previousSecretExpiresAt, account.timezone)
      : null;

  return (
    <>
      <BackLink href="/settings/webhooks">All subscriptions</BackLink>
      <PageHeader
        title={subscription.description || urlHost(subscription.url)}
        description={<span className="font-mono text-xs break-all">{subscription.url}</span>}
        actions={
          manager ? (
            <SubscriptionActions
              subscriptionId={subscription.id}
              url={subscription.url}
              enabled={subscription.status === "active"}
              initial={{
                url: subscription.url,
                eventTypes: subscription.eventTypes,
                description: subscription.description,
              }}
              maxDescriptionLength={MAX_DESCRIPTION_LENGTH}
            />
          ) : null
        }
      />
      <div className="space-y-6">
        <HealthNoticeCard notice={notice} />
        <div className="grid gap-6 lg:grid-cols-5">
          <Card id="subscription-details" title="Details" className="lg:col-span-3">
            <dl className="mt-2 divide-y divide-zinc-100">
              <DetailRow columns={4} term="URL">
                <span className="flex items-start justify-between gap-3">
                  <span className="font-mono text-xs leading-5 break-all">{subscription.url}</span>
                  <CopyButton value={subscription.url} size="sm" toastMessage="URL copied" aria-label="Copy URL" />
                </span>
              </DetailRow>
              <DetailRow columns={4} term="Events">
                <span className="flex flex-wrap gap-1">
                  {eventTypeLabels(subscription.eventTypes).map((label) => (
                    <Badge key={label} tone="indigo" mono={label.includes(".")}>
                      {label}
                    </Badge>
                  ))}
                </span>
              </DetailRow>
              <DetailRow columns={4} term="Description">
                {subscription.description || none}
              </DetailRow>
              <DetailRow columns={4} term="Status">
                <Badge tone={badge.tone} dot>
                  {badge.label}
                </Badge>
              </DetailRow>
              <DetailRow columns={4} term="Created">
                {formatDateTime(subscription.createdAt, account.timezone)}
              </DetailRow>
              <DetailRow columns={4} term="ID">
                <code className="font-mono text-xs">{subscription.id}</code>
              </DetailRow>
            </dl>
          </Card>
          <div className="lg:col-span-2">
            <SecretCard
              subscriptionId={subscription.id}
              canManage={manager}
              previousSecretUntil={previousSecretUntil}
            />
          </div>
        </div>
        <DeliveryAttemptsSection
          subscriptionId={subscription.id}
          attempts={attempts.data}
          cursor={cursor}
          nextCursor={attempts.nextCursor}
          filters={filters}
          timezone={account.timezone}
          now={now}
          canManage={manager}
          active={subscription.status === "active"}
        />
      </div>
    </>
  );
}
