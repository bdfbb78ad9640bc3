"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { usePathname, useSearchParams } from "next/navigation";
import { DataTable } from "@/components/ui/data-table";
import { logTimeColumn } from "@/components/ui/log-view";
import { StatusBadge } from "./status-badge";
import { none } from "@/components/ui/none";

/** What a row and the detail dialog both show of a delivery; times in the account's zone. */
export type DeliveryView = {
  id: string;
  time: string;
  action: string | null;
  status: number;
  eventTitle: string | null;
  /** The occurrence of a series a cancel or delete acted on, in the account's zone ("Sat 5 Dec, 09:00"). */
  occurrence: string | null;
  errorCode: string | null;
  latencyMs: number;
};

export type DeliveryRow = DeliveryView & {
  relative: string;
  iso: string;
  /** The hover: the zone's long name and the UTC instant. */
  full: string;
};

function useDetailHref() {
  const pathname = usePathname();
  const params = useSearchParams();
  return (id: string) => {
    const next = new URLSearchParams(params);
    next.set("delivery", id);
    return `${pathname}?${next}`;
  };
}

export function DeliveriesTable({ rows, emptyMessage }: { rows: DeliveryRow[]; emptyMessage: React.ReactNode }) {
  const detailHref = useDetailHref();
  const columns: ColumnDef<DeliveryRow>[] = [
    logTimeColumn((entry) => ({ href: detailHref(entry.id), label: `Delivery at ${entry.time}: view details` })),
    {
      id: "action",
      header: "Action",
      cell: ({ row }) =>
        row.original.action ? <span className="font-mono text-xs">{row.original.action}</span> : none,
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row }) => (
        <span className="flex flex-wrap items-center gap-1.5">
          <StatusBadge status={row.original.status} />
          {row.original.errorCode ? (
            <span className="font-mono text-xs text-zinc-500">{row.original.errorCode}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: "event",
      header: "Event",
      cell: ({ row }) => (
        <>
          {row.original.eventTitle ? <span className="line-clamp-2 break-words">{row.original.eventTitle}</span> : none}
          {row.original.occurrence ? (
            <span className="block text-xs text-zinc-500">Occurrence: {row.original.occurrence}</span>
          ) : null}
        </>
      ),
      meta: { cellClassName: "max-w-xs" },
    },
    {
      id: "latency",
      header: "Latency",
      cell: ({ row }) => <span className="tabular-nums text-zinc-600">{row.original.latencyMs} ms</span>,
      meta: { headerClassName: "text-right", cellClassName: "text-right" },
    },
  ];
  return <DataTable label="Recent deliveries" columns={columns} data={rows} emptyMessage={emptyMessage} />;
}
