"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { MomentCell, type Moment } from "@/components/ui/moment-cell";
import type { ApiKeyState, ApiKeySummary } from "@/lib/api-keys/keys";
import { RevokeKeyButton } from "./revoke-key-button";
import { ScopeBadges } from "./scope-badges";

/** One key as the page sends it to the browser: display fields only, dates already formatted. */
export type ApiKeyRow = Pick<ApiKeySummary, "id" | "name" | "prefix" | "last4" | "scopes" | "state" | "createdBy"> & {
  created: Moment;
  lastUsed: Moment | null;
  expires: Moment | null;
  revoked: Moment | null;
};

const STATE_TONES: Record<ApiKeyState, BadgeTone> = { active: "green", expired: "amber", revoked: "neutral" };
const STATE_LABELS: Record<ApiKeyState, string> = { active: "Active", expired: "Expired", revoked: "Revoked" };

const column = createColumnHelper<ApiKeyRow>();

/** A date a key may not have (never used, no expiry), shown as "never". */
const dateOrNever = (key: "lastUsed" | "expires", header: string) =>
  column.accessor(key, { header, cell: ({ getValue }) => <MomentCell moment={getValue()} empty="never" /> });

function columns(canManage: boolean) {
  return [
    column.accessor("name", {
      header: "Name",
      cell: ({ row }) => (
        <div className="min-w-40">
          <p className="font-medium break-words text-zinc-900">{row.original.name}</p>
          <p
            className="mt-0.5 font-mono text-xs text-zinc-500"
            aria-label={`Key ${row.original.prefix} ending ${row.original.last4}`}
          >
            {row.original.prefix}…{row.original.last4}
          </p>
        </div>
      ),
    }),
    column.accessor("scopes", {
      header: "Scopes",
      cell: ({ getValue }) => <ScopeBadges scopes={getValue()} className="flex max-w-60 min-w-40 flex-wrap gap-1" />,
    }),
    column.accessor("created", {
      header: "Created",
      cell: ({ row }) => (
        <MomentCell
          moment={row.original.created}
          below={row.original.createdBy ? `by ${row.original.createdBy}` : "by a former member"}
        />
      ),
    }),
    dateOrNever("lastUsed", "Last used"),
    dateOrNever("expires", "Expires"),
    column.accessor("state", {
      header: "State",
      cell: ({ row }) => (
        <div className="whitespace-nowrap">
          <Badge tone={STATE_TONES[row.original.state]} dot>
            {STATE_LABELS[row.original.state]}
          </Badge>
          {row.original.revoked ? (
            <p className="mt-1 text-xs text-zinc-500" title={row.original.revoked.full}>
              {row.original.revoked.date}
            </p>
          ) : null}
        </div>
      ),
    }),
    ...(canManage
      ? [
          column.display({
            id: "actions",
            header: () => <span className="sr-only">Actions</span>,
            meta: { cellClassName: "w-12 text-right", headerClassName: "w-12", stickyActions: true },
            cell: ({ row }) =>
              row.original.state === "revoked" ? null : (
                <RevokeKeyButton keyId={row.original.id} keyName={row.original.name} />
              ),
          }),
        ]
      : []),
  ];
}

export function ApiKeysTable({ rows, canManage }: { rows: ApiKeyRow[]; canManage: boolean }) {
  return (
    <DataTable
      label="API keys"
      columns={columns(canManage)}
      data={rows}
      rowClassName={(row) => (row.state === "revoked" ? "text-zinc-500 [&_p]:text-zinc-500" : undefined)}
    />
  );
}
