import { ChevronLeft, ChevronRight, ScrollText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { auditActionTone, describeAuditAction, describeAuditTarget } from "@/lib/audit/labels";
import { AUDIT_RETENTION_DAYS, listAuditLog } from "@/lib/audit/list";
import { requireSession } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/platform/format/date-time";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Promise<{ older?: string | string[]; newer?: string | string[] }>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function AuditLogPage({ searchParams }: { searchParams: SearchParams }) {
  const { account } = await requireSession();
  const params = await searchParams;
  const page = await listAuditLog(account.id, { older: first(params.older), newer: first(params.newer) });
  const description =
    `Who changed API keys, webhook sources, events, leads and the pipeline, and when. ` +
    `Entries are kept for at least ${AUDIT_RETENTION_DAYS / 365} year.`;

  if (page.entries.length === 0) {
    return (
      <>
        <PageHeader title="Audit log" description={description} />
        <EmptyState icon={<ScrollText className="size-6" aria-hidden />} title="Nothing recorded yet">
          <p>
            Creating and revoking API keys, changes to webhook sources, deleted events and leads, CSV imports, stage
            moves in the dashboard and pipeline edits are recorded here.
          </p>
        </EmptyState>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Audit log" description={description} />
      <Table aria-label="Audit log">
        <TableHeader>
          <TableRow>
            <TableHead>Time</TableHead>
            <TableHead>Actor</TableHead>
            <TableHead>Action</TableHead>
            <TableHead>Target</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {page.entries.map((entry) => {
            const detail = describeAuditTarget(entry);
            return (
              <TableRow key={entry.id}>
                <TableCell className="whitespace-nowrap text-zinc-600">
                  <time dateTime={entry.createdAt.toISOString()}>
                    {formatDateTime(entry.createdAt, account.timezone)}
                  </time>
                </TableCell>
                <TableCell className="text-zinc-900">{entry.actorLabel}</TableCell>
                <TableCell>
                  <Badge tone={auditActionTone(entry.action)}>{describeAuditAction(entry.action)}</Badge>
                </TableCell>
                <TableCell>
                  <p className="font-medium break-words text-zinc-900">{entry.targetLabel}</p>
                  {detail ? <p className="mt-0.5 font-mono text-xs text-zinc-500">{detail}</p> : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <nav aria-label="Audit log pages" className="mt-4 flex justify-end gap-2">
        <PageLink
          href={page.newer ? `?newer=${page.newer}` : null}
          label="Newer"
          icon={<ChevronLeft className="size-4" aria-hidden />}
        />
        <PageLink
          href={page.older ? `?older=${page.older}` : null}
          label="Older"
          icon={<ChevronRight className="size-4" aria-hidden />}
          trailing
        />
      </nav>
    </>
  );
}

function PageLink({
  href,
  label,
  icon,
  trailing,
}: {
  href: string | null;
  label: string;
  icon: React.ReactNode;
  trailing?: boolean;
}) {
  const content = trailing ? (
    <>
      {label}
      {icon}
    </>
  ) : (
    <>
      {icon}
      {label}
    </>
  );
  if (!href) {
    return (
      <span aria-disabled="true" className={cn(buttonClasses("secondary", "sm"), "cursor-not-allowed opacity-50")}>
        {content}
      </span>
    );
  }
  return (
    <Link href={href} className={buttonClasses("secondary", "sm")}>
      {content}
    </Link>
  );
}
