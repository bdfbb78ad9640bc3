import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { leadDisplayName } from "@/lib/leads/display";
import { listPipelineStages } from "@/lib/leads/pipeline";
import { getLead } from "@/lib/leads/read";
import { StageBadge } from "../_components/stage-badge";
import { LEAD_FORM_LIMITS } from "../view-model";
import { LeadActions } from "./_components/lead-actions";
import { StageSelect } from "./_components/stage-select";
import { DetailList } from "@/components/ui/detail-item";

export const metadata: Metadata = { title: "Lead" };

const cardClasses = "rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200 sm:p-6";
const none = <span className="text-zinc-500">—</span>;

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-zinc-500">{term}</dt>
      <dd className="text-sm break-words text-zinc-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

export default async function LeadPage({ params }: { params: Promise<{ id: string }> }) {
  const context = await requireSession();
  const { account } = context;
  const { id } = await params;
  const [lead, stages] = await Promise.all([getLead(account.id, id), listPipelineStages(account.id)]);
  if (!lead) notFound();
  const manager = canManage(context);
  const name = leadDisplayName(lead);
  const stageIndex = stages.findIndex((stage) => stage.key === lead.stage);
  const stageOptions = stages.map(({ key, label }) => ({ key, label }));
  const when = (date: Date) => <time dateTime={date.toISOString()}>{formatDateTime(date, account.timezone)}</time>;
  const metadataEntries = Object.entries(lead.metadata).sort(([a], [b]) => a.localeCompare(b));

  return (
    <>
      <Link
        href="/leads"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-zinc-500 hover:text-zinc-900"
      >
        <ArrowLeft className="size-4" aria-hidden />
        All leads
      </Link>
      <PageHeader
        title={name}
        description={lead.company ?? undefined}
        actions={
          manager ? (
            <LeadActions
              leadId={lead.id}
              leadName={name}
              limits={LEAD_FORM_LIMITS}
              initial={{
                name: lead.name ?? "",
                email: lead.email ?? "",
                phone: lead.phone ?? "",
                company: lead.company ?? "",
                notes: lead.notes ?? "",
                stage: lead.stage,
              }}
            />
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <section aria-labelledby="lead-details" className={cardClasses}>
            <h2 id="lead-details" className="text-sm font-semibold text-zinc-900">
              Details
            </h2>
            <dl className="mt-2 divide-y divide-zinc-100">
              <Row term="Name">{lead.name ?? none}</Row>
              <Row term="Email">
                {lead.email ? (
                  <a href={`mailto:${lead.email}`} className="text-indigo-600 hover:underline">
                    {lead.email}
                  </a>
                ) : (
                  none
                )}
              </Row>
              <Row term="Phone">
                {lead.phone ? (
                  <a href={`tel:${lead.phone.replace(/[^\d+]/g, "")}`} className="text-indigo-600 hover:underline">
                    {lead.phone}
                  </a>
                ) : (
                  none
                )}
              </Row>
              <Row term="Company">{lead.company ?? none}</Row>
              <Row term="Source">{lead.source ?? none}</Row>
              <Row term="Notes">{lead.notes ? <span className="whitespace-pre-wrap">{lead.notes}</span> : none}</Row>
            </dl>
          </section>
          <section aria-labelledby="lead-metadata" className={cardClasses}>
            <h2 id="lead-metadata" className="text-sm font-semibold text-zinc-900">
              Metadata
            </h2>
            {metadataEntries.length ? (
              <dl aria-labelledby="lead-metadata" className="mt-2 divide-y divide-zinc-100">
                {metadataEntries.map(([key, value]) => (
                  <div key={key} className="grid gap-1 py-2.5 sm:grid-cols-3 sm:gap-4">
                    <dt className="font-mono text-xs break-all text-zinc-500 sm:pt-0.5">{key}</dt>
                    <dd className="text-sm break-words whitespace-pre-wrap text-zinc-900 sm:col-span-2">{value}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="mt-2 text-sm text-zinc-500">
                No metadata. Integrations can attach up to 50 key/value pairs through the API.
              </p>
            )}
          </section>
        </div>
        <aside className="space-y-6">
          <section aria-labelledby="lead-pipeline" className={cardClasses}>
            <h2 id="lead-pipeline" className="mb-3 text-sm font-semibold text-zinc-900">
              Pipeline
            </h2>
            {manager ? (
              <StageSelect leadId={lead.id} stage={lead.stage} stages={stageOptions} />
            ) : (
              <p className="text-sm text-zinc-700">
                Stage:{" "}
                <StageBadge stageKey={lead.stage} label={stages[stageIndex]?.label ?? lead.stage} index={stageIndex} />
              </p>
            )}
            <p className="mt-3 text-xs text-zinc-500">In this stage since {when(lead.stageChangedAt)}.</p>
          </section>
          <section aria-labelledby="lead-record" className={cardClasses}>
            <h2 id="lead-record" className="text-sm font-semibold text-zinc-900">
              Record
            </h2>
            <DetailList
              className="mt-2"
              entries={[
                ["Created", when(lead.createdAt)],
                ["Updated", when(lead.updatedAt)],
                ["Stage changed", when(lead.stageChangedAt)],
                [
                  "Lead ID",
                  <code key="id" className="font-mono text-xs break-all">
                    {lead.id}
                  </code>,
                ],
              ]}
            />
          </section>
        </aside>
      </div>
    </>
  );
}
