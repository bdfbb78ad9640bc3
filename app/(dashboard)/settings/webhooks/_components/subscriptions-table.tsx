"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { MomentCell, type Moment } from "@/components/ui/moment-cell";
import { HEALTH_BADGES, type Health } from "../view-model";
import { RecordLinkCell } from "@/components/ui/record-link-cell";

export type SubscriptionRow = {
  id: string;
  url: string;
  description: string;
  events: string[];
  health: Health;
  lastDelivery: Moment | null;
  lastDeliveryOk: boolean | null;
};

const MAX_EVENT_BADGES = 3;

const columns: ColumnDef<SubscriptionRow>[] = [
  {
    id: "url",
    header: "URL",
    cell: ({ row }) => (
      <RecordLinkCell
        href={`/settings/webhooks/${row.original.id}`}
        title={row.original.url}
        className="min-w-0"
        linkClassName="block truncate font-mono text-xs"
        below={
          row.original.description ? (
            <p className="mt-0.5 truncate text-xs text-zinc-500">{row.original.description}</p>
          ) : null
        }
      >
        {row.original.url}
      </RecordLinkCell>
    ),
    meta: { cellClassName: "max-w-[22rem]" },
  },
  {
    id: "events",
    header: "Events",
    cell: ({ row }) => {
      const { events } = row.original;
      const shown = events.slice(0, MAX_EVENT_BADGES);
      const rest = events.length - shown.length;
      return (
        <span className="flex flex-wrap gap-1" title={events.join(", ")}>
          {shown.map((label) => (
            <Badge key={label} tone="indigo" mono={label.includes(".")}>
              {label}
            </Badge>
          ))}
          {rest > 0 ? <Badge>+{rest} more</Badge> : null}
        </span>
      );
    },
  },
  {
    id: "status",
    header: "Status",
    cell: ({ row }) => {
      const badge = HEALTH_BADGES[row.original.health];
      return (
        <Badge tone={badge.tone} dot>
          {badge.label}
        </Badge>
      );
    },
  },
  {
    id: "lastDelivery",
    header: "Last delivery",
    cell: ({ row }) => {
      const { lastDelivery, lastDeliveryOk } = row.original;
      const outcome = lastDeliveryOk ? (
        <span className="text-emerald-700">Delivered</span>
      ) : (
        <span className="text-red-700">Failed</span>
      );
      return (
        <MomentCell
          moment={lastDelivery}
          empty="None yet"
          below={
            lastDelivery ? (
              <>
                {lastDelivery.time} · {outcome}
              </>
            ) : undefined
          }
        />
      );
    },
  },
];

export function SubscriptionsTable({ rows }: { rows: SubscriptionRow[] }) {
  return <DataTable label="Webhook subscriptions" columns={columns} data={rows} />;
}
