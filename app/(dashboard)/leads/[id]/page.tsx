import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BackLink, Card, DetailRow, RecordCard } from "@/components/ui/detail-card";
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
import { none } from "@/components/ui/none";

export const metadata: Metadata = { title: "Lead" };

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
      <BackLink href="/leads">All leads</BackLink>
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
          <Card id="lead-details" title="Details">
            <dl className="mt-2 divide-y divide-zinc-100">
              <DetailRow term="Name">{lead.name ?? none}</DetailRow>
              <DetailRow term="Email">
                {lead.email ? (
                  <a href={`mailto:${lead.email}`} className="text-indigo-600 hover:underline">
                    {lead.email}
                  </a>
                ) : (
                  none
                )}
              </DetailRow>
              <DetailRow term="Phone">
                {lead.phone ? (
                  <a href={`tel:${lead.phone.replace(/[^\d+]/g, "")}`} className="text-indigo-600 hover:underline">
                    {lead.phone}
                  </a>
                ) : (
                  none
                )}
              </DetailRow>
              <DetailRow term="Company">{lead.company ?? none}</DetailRow>
              <DetailRow term="Source">{lead.source ?? none}</DetailRow>
              <DetailRow term="Notes">
                {lead.notes ? <span className="whitespace-pre-wrap">{lead.notes}</span> : none}
              </DetailRow>
            </dl>
          </Card>
          <Card id="lead-metadata" title="Metadata">
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
          </Card>
        </div>
        <aside className="space-y-6">
          <Card id="lead-pipeline" title="Pipeline">
            <div className="mt-3">
              {manager ? (
                <StageSelect leadId={lead.id} stage={lead.stage} stages={stageOptions} />
              ) : (
                <p className="text-sm text-zinc-700">
                  Stage:{" "}
                  <StageBadge
                    stageKey={lead.stage}
                    label={stages[stageIndex]?.label ?? lead.stage}
                    index={stageIndex}
                  />
                </p>
              )}
            </div>
            <p className="mt-3 text-xs text-zinc-500">In this stage since {when(lead.stageChangedAt)}.</p>
          </Card>
          <RecordCard noun="Lead" record={lead} when={when} moments={[["Stage changed", lead.stageChangedAt]]} />
        </aside>
      </div>
    </>
  );
}
