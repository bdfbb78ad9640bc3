import { Webhook } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { PLANS } from "@/lib/accounts/plans";
import { canManage, requireSession } from "@/lib/auth/session";
import { getDelivery, listDeliveries, type ListDeliveriesOptions } from "@/lib/events-webhook/deliveries";
import { listSources } from "@/lib/events-webhook/sources";
import { markNoticesOpened } from "@/lib/notices/open";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { hasLogFilter, logWindow } from "@/lib/platform/log-filter";
import { relativeTime } from "@/lib/platform/format/relative-time";
import { AddSourceDialog } from "./_components/add-source-dialog";
import { DeliveriesSection } from "./_components/deliveries-section";
import { IntegrationGuide } from "./_components/integration-guide";
import { SourceCard } from "./_components/source-card";
import { SourceSettingsForm } from "./_components/source-settings-form";

export const metadata: Metadata = { title: "Events Webhook" };

type SearchParams = {
  source?: string;
  cursor?: string;
  dir?: string;
  action?: string;
  status?: string;
  delivery?: string;
  q?: string;
  from?: string;
  to?: string;
};

const ACTIONS = ["upsert", "cancel", "delete"] as const;
const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
const pick = <T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined =>
  (allowed as readonly string[]).includes(value ?? "") ? (value as T) : undefined;

export default async function WebhookPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const context = await requireSession();
  const params = await searchParams;
  const manager = canManage(context);
  const { account } = context;
  const sources = await listSources(account.id);
  const plan = PLANS[account.plan];
  const addSource = manager ? (
    <AddSourceDialog atLimit={sources.length >= plan.maxSources} limit={plan.maxSources} />
  ) : null;
  const header = (
    <PageHeader
      title="Events Webhook"
      description={
        "Booking platforms, CRMs and your own backend push signed event changes " +
        "(upsert, cancel, delete) into this account in real time."
      }
      actions={addSource}
    />
  );

  if (sources.length === 0) {
    return (
      <>
        {header}
        <EmptyState icon={<Webhook className="size-6" aria-hidden />} title="No webhook source yet" action={addSource}>
          <p>
            A source gives you an endpoint URL and a signing secret. Requests signed with the secret create, update,
            cancel or delete events.
          </p>
        </EmptyState>
      </>
    );
  }

  const source = sources.find((candidate) => candidate.publicId === params.source) ?? sources[0];
  // An owner has opened the problem: its banner goes.
  if (manager) await markNoticesOpened(account.id, "source_failing", source.publicId);
  const filters: ListDeliveriesOptions = {
    action: pick(params.action, ACTIONS),
    statusClass: pick(params.status, STATUS_CLASSES),
    search: params.q,
    from: params.from,
    to: params.to,
    timeZone: account.timezone,
  };
  const [page, newest, detail] = await Promise.all([
    listDeliveries(account.id, source.id, {
      ...filters,
      cursor: params.cursor,
      direction: params.dir === "newer" ? "newer" : "older",
    }),
    listDeliveries(account.id, source.id, { limit: 1 }),
    params.delivery ? getDelivery(account.id, params.delivery) : Promise.resolve(null),
  ]);
  const now = new Date();

  return (
    <>
      {header}
      {sources.length > 1 ? (
        <nav aria-label="Webhook sources" className="mb-6 flex flex-wrap gap-2">
          {sources.map((candidate) => (
            <Link
              key={candidate.id}
              href={`?source=${candidate.publicId}`}
              aria-current={candidate.id === source.id ? "page" : undefined}
              className={cn(
                "inline-flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-medium ring-1",
                candidate.id === source.id
                  ? "bg-indigo-600 text-white ring-indigo-600"
                  : "bg-white text-zinc-700 ring-zinc-300 hover:bg-zinc-50",
              )}
            >
              <span
                className={cn("size-1.5 rounded-full", candidate.active ? "bg-emerald-400" : "bg-zinc-400")}
                aria-hidden
              />
              {candidate.name}
            </Link>
          ))}
        </nav>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <SourceCard
          key={source.id}
          source={{
            id: source.id,
            publicId: source.publicId,
            name: source.name,
            active: source.active,
            endpointUrl: source.endpointUrl,
            rotatedAt: source.secretRotatedAt ? formatDateTime(source.secretRotatedAt, account.timezone) : null,
          }}
          canManage={manager}
        />
        <section aria-labelledby="source-settings" className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200">
          <h2 id="source-settings" className="mb-4 text-base font-semibold text-zinc-900">
            Settings
          </h2>
          <SourceSettingsForm
            key={source.id}
            sourceId={source.id}
            name={source.name}
            rateLimitPerMinute={source.rateLimitPerMinute}
            canManage={manager}
          />
          <p className="mt-5 border-t border-zinc-100 pt-4 text-xs text-zinc-500">
            Created {formatDateTime(source.createdAt, account.timezone)}
            {source.secretRotatedAt ? ` · secret rotated ${relativeTime(source.secretRotatedAt, now)}` : ""}
          </p>
        </section>
      </div>

      <DeliveriesSection
        sourceId={source.id}
        page={page}
        newestId={newest.items[0]?.id ?? null}
        detail={detail && detail.sourceId === source.id ? detail : null}
        params={params}
        timezone={account.timezone}
        now={now}
        filtered={Boolean(filters.action || filters.statusClass || hasLogFilter(filters))}
        rangeProblem={logWindow(filters).problem}
      />

      <div className="mt-6">
        <IntegrationGuide
          endpointUrl={source.endpointUrl}
          rateLimitPerMinute={source.rateLimitPerMinute}
          plan={account.plan}
        />
      </div>
    </>
  );
}
