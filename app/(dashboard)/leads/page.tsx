import { Info, Users } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { hasLeads, listLeadsTable, readBoard } from "@/lib/leads/dashboard";
import { listPipelineStages, stageLeadCounts } from "@/lib/leads/pipeline";
import { LeadsBoard, type BoardColumnView } from "./_components/leads-board";
import { LeadsImportDialog } from "./_components/leads-import-dialog";
import { LeadsTable } from "./_components/leads-table";
import { LeadsToolbar } from "./_components/leads-toolbar";
import { NewLeadButton } from "./_components/new-lead-button";
import { ViewToggle } from "./_components/view-toggle";
import { checkedLeadParams, hasFilters, leadsHref, type LeadSearchParams } from "./filters";
import { LEAD_FORM_LIMITS, leadCardView } from "./view-model";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { CsvExportLink } from "@/components/csv/csv-export-link";

export const metadata: Metadata = { title: "Leads" };

const PAGE_SIZE = 50;
const BOARD_PER_STAGE = 50;
const COUNT_CAP = 1_000;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LeadsPage({ searchParams }: Props) {
  const context = await requireSession();
  const { account } = context;
  const manager = canManage(context);
  const { params, notice } = checkedLeadParams(await searchParams);
  const [stages, anyLead] = await Promise.all([listPipelineStages(account.id), hasLeads(account.id)]);
  const stageOptions = stages.map(({ key, label }) => ({ key, label }));
  const view = params.view === "board" ? "board" : "table";

  const exportHref = `/leads/export${leadsHref({ q: params.q, stage: params.stage }, {}).slice("/leads".length)}`;
  const empty = !anyLead && !hasFilters(params);
  const header = (
    <PageHeader
      title="Leads"
      description={
        "People and companies you are in touch with: from the chat, " +
        "your API integrations, imports and this dashboard."
      }
      actions={
        empty ? null : (
          <>
            {anyLead ? <CsvExportLink href={exportHref} /> : null}
            {manager ? <LeadsImportDialog /> : null}
            {manager ? <NewLeadButton stages={stageOptions} limits={LEAD_FORM_LIMITS} /> : null}
          </>
        )
      }
    />
  );
  const readOnlyNote = manager ? null : (
    <ReadOnlyNote>
      You can view this account&apos;s leads. Only owners and admins can add, edit, move or delete them.
    </ReadOnlyNote>
  );

  if (empty) {
    return (
      <>
        {header}
        {readOnlyNote}
        <EmptyState
          icon={<Users className="size-6" aria-hidden />}
          title="No leads yet"
          action={
            <>
              {manager ? <NewLeadButton stages={stageOptions} limits={LEAD_FORM_LIMITS} /> : null}
              {manager ? <LeadsImportDialog /> : null}
              <Link href="/settings/api-keys" className={buttonClasses("secondary")}>
                Create an API key
              </Link>
            </>
          }
        >
          <p>
            Leads arrive when visitors leave their contact details in the chat, or when a CRM or automation tool creates
            them through the API with a{" "}
            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs">write:leads</code> key. You can also add
            them by hand or import a CSV file.
          </p>
        </EmptyState>
      </>
    );
  }

  const toggle = (
    <ViewToggle
      current={view}
      tableHref={leadsHref(params, { view: null })}
      boardHref={leadsHref(params, { view: "board", q: null, stage: null })}
    />
  );

  if (view === "board") {
    const [board, counts] = await Promise.all([
      readBoard(account.id, BOARD_PER_STAGE),
      stageLeadCounts(account.id, COUNT_CAP),
    ]);
    const columns: BoardColumnView[] = board.map((column) => ({
      key: column.key,
      label: column.label,
      hasMore: column.hasMore,
      count: counts.get(column.key) ?? column.leads.length,
      leads: column.leads.map((lead) => leadCardView(lead, account.timezone)),
    }));
    return (
      <>
        {header}
        {readOnlyNote}
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {toggle}
          <p className="text-xs text-zinc-500">
            {manager ? "Drag a card to another column, or use its move button. " : ""}Each column shows its{" "}
            {BOARD_PER_STAGE} newest leads.
          </p>
        </div>
        <LeadsBoard columns={columns} canManage={manager} countCap={COUNT_CAP} />
      </>
    );
  }

  const page = await listLeadsTable(account.id, {
    q: params.q,
    stage: params.stage,
    cursor: params.cursor,
    dir: params.dir === "prev" ? "prev" : "next",
    limit: PAGE_SIZE,
  });
  return (
    <>
      {header}
      {readOnlyNote}
      <div className="space-y-4">
        <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
          {toggle}
          <div className="flex-1">
            <LeadsToolbar stages={stageOptions} />
          </div>
        </div>
        {notice ? (
          <p role="status" className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <Info className="size-4 shrink-0 text-amber-600" aria-hidden />
            {notice}
          </p>
        ) : null}
        <LeadsTable
          rows={page.leads.map((lead) => leadCardView(lead, account.timezone))}
          stages={stageOptions}
          emptyMessage="No leads match your search and filter."
        />
        <PageLinks params={params} prev={page.prevCursor} next={page.nextCursor} timezone={account.timezone} />
      </div>
    </>
  );
}

function PageLinks({
  params,
  prev,
  next,
  timezone,
}: {
  params: LeadSearchParams;
  prev: string | null;
  next: string | null;
  timezone: string;
}) {
  const link = (cursor: string | null, dir: "prev" | "next", children: React.ReactNode) => (
    <Link
      href={cursor ? leadsHref(params, { cursor, dir }) : leadsHref(params, {})}
      aria-disabled={!cursor}
      tabIndex={cursor ? undefined : -1}
      className={buttonClasses("secondary", "sm", cursor ? "" : "pointer-events-none opacity-50")}
    >
      {children}
    </Link>
  );
  return (
    <nav aria-label="Leads pages" className="flex items-center justify-between gap-2">
      <p className="text-xs text-zinc-500">Newest first. Times in {timezone}.</p>
      <div className="flex gap-2">
        {link(
          prev,
          "prev",
          <>
            <span aria-hidden>←</span> Previous
          </>,
        )}
        {link(
          next,
          "next",
          <>
            Next <span aria-hidden>→</span>
          </>,
        )}
      </div>
    </nav>
  );
}
