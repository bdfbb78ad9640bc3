"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { logTimeColumn } from "@/components/ui/log-view";
import { HttpStatus, OutcomeBadge } from "./attempt-badges";
import { AttemptDetailDialog } from "./attempt-detail-dialog";
import type { AttemptRow } from "./attempt-row";
import { ResendButton } from "./resend-button";
import { none } from "@/components/ui/none";

export function DeliveryAttemptsTable({
  rows,
  canManage,
  emptyMessage,
}: {
  rows: AttemptRow[];
  canManage: boolean;
  emptyMessage: React.ReactNode;
}) {
  const [open, setOpen] = useState<AttemptRow | null>(null);
  const columns: ColumnDef<AttemptRow>[] = [
    logTimeColumn((entry) => ({ onOpen: () => setOpen(entry), label: `Attempt at ${entry.time}: view details` })),
    {
      id: "type",
      header: "Event type",
      cell: ({ row }) => (
        <span>
          <span className="font-mono text-xs">{row.original.type}</span>
          {row.original.attempt > 1 ? (
            <span className="block text-xs text-zinc-500">attempt {row.original.attempt}</span>
          ) : null}
        </span>
      ),
    },
    { id: "status", header: "Status", cell: ({ row }) => <OutcomeBadge outcome={row.original.outcome} /> },
    { id: "http", header: "HTTP", cell: ({ row }) => <HttpStatus code={row.original.statusCode} /> },
    {
      id: "duration",
      header: "Duration",
      cell: ({ row }) => (
        <span className="text-zinc-600 tabular-nums">{row.original.durationMs.toLocaleString("en-US")} ms</span>
      ),
      meta: { headerClassName: "text-right", cellClassName: "text-right" },
    },
    {
      id: "next",
      header: "Next retry",
      cell: ({ row }) =>
        row.original.nextRetry ? (
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            <span className="block whitespace-nowrap">
              <span className="block text-zinc-700">{row.original.nextRetry.at}</span>
              <span className="text-xs text-zinc-500">{row.original.nextRetry.relative}</span>
            </span>
            {canManage ? <ResendButton deliveryId={row.original.deliveryId} type={row.original.type} retry /> : null}
          </span>
        ) : row.original.canResend && canManage ? (
          <ResendButton deliveryId={row.original.deliveryId} type={row.original.type} />
        ) : (
          none
        ),
    },
  ];
  return (
    <>
      <DataTable label="Delivery attempts" columns={columns} data={rows} emptyMessage={emptyMessage} />
      {open ? <AttemptDetailDialog attempt={open} canManage={canManage} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
