"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { DataTable } from "@/components/ui/data-table";
import { MomentCell } from "@/components/ui/moment-cell";
import type { LeadCardView, StageOption } from "../view-model";
import { StageBadge } from "./stage-badge";
import { none } from "@/components/ui/none";
import { RecordLinkCell } from "@/components/ui/record-link-cell";

export function LeadsTable({
  rows,
  stages,
  emptyMessage,
}: {
  rows: LeadCardView[];
  stages: StageOption[];
  emptyMessage: React.ReactNode;
}) {
  const columns: ColumnDef<LeadCardView>[] = [
    {
      id: "name",
      header: "Name",
      cell: ({ row }) => (
        <RecordLinkCell
          href={`/leads/${row.original.id}`}
          below={
            row.original.phone && row.original.displayName !== row.original.phone ? (
              <p className="mt-0.5 text-xs text-zinc-500">{row.original.phone}</p>
            ) : null
          }
        >
          {row.original.displayName}
        </RecordLinkCell>
      ),
    },
    {
      id: "email",
      header: "Email",
      cell: ({ row }) =>
        row.original.email ? <span className="inline-block min-w-48 wrap-anywhere">{row.original.email}</span> : none,
    },
    { id: "company", header: "Company", cell: ({ row }) => row.original.company || none },
    {
      id: "stage",
      header: "Stage",
      cell: ({ row }) => {
        const index = stages.findIndex((stage) => stage.key === row.original.stage);
        return (
          <StageBadge stageKey={row.original.stage} label={stages[index]?.label ?? row.original.stage} index={index} />
        );
      },
    },
    { id: "created", header: "Created", cell: ({ row }) => <MomentCell moment={row.original.created} /> },
  ];
  return <DataTable label="Leads" columns={columns} data={rows} emptyMessage={emptyMessage} />;
}
