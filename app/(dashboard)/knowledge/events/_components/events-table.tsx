"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { Ban, Pencil, Repeat, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { IconConfirm } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { MomentCell, type Moment } from "@/components/ui/moment-cell";
import { useAct } from "@/app/(dashboard)/_components/use-act";
import { cancelEventAction, deleteEventAction } from "../actions";
import { EventFormDialog, type EventFormValues } from "./event-form-dialog";
import { none } from "@/components/ui/none";
import { RecordLinkCell } from "@/components/ui/record-link-cell";

export type EventRowView = {
  id: string;
  title: string;
  starts: Moment;
  startsOriginal: string;
  ends: Moment | null;
  location: string;
  price: string;
  recurring: string;
  /** For a series: "Repeats weekly · next Sat 5 Dec, 09:00". */
  repeats: string | null;
  status: "upcoming" | "cancelled";
  past: boolean;
  url: string;
  form: EventFormValues;
};

/** What a row's Cancel and Delete buttons ask before they act, and the action each then calls. */
const CHANGES = {
  cancel: {
    Icon: Ban,
    verb: "Cancel",
    effect: "The event stays in your knowledge with the status cancelled, as a cancel from the webhook would leave it.",
    seriesEffect:
      "Every occurrence of this series is cancelled: it stays in your knowledge with the status cancelled. " +
      "To cancel one occurrence, open the event and cancel it in Next occurrences.",
    confirmLabel: "Cancel event",
    cancelLabel: "Keep it",
    action: cancelEventAction,
  },
  delete: {
    Icon: Trash2,
    verb: "Delete",
    effect:
      "The event is removed from your knowledge. This cannot be undone; " +
      "a later upsert from your system would create it again.",
    seriesEffect:
      "The whole series is removed, every occurrence with it. This cannot be undone; " +
      "to remove one occurrence, open the event and delete it in Next occurrences.",
    confirmLabel: "Delete",
    cancelLabel: undefined,
    action: deleteEventAction,
  },
} as const;

function ChangeConfirm({
  row,
  change,
  run,
}: {
  row: EventRowView;
  change: keyof typeof CHANGES;
  run: ReturnType<typeof useAct>["act"];
}) {
  const { Icon, verb, effect, seriesEffect, confirmLabel, cancelLabel, action } = CHANGES[change];
  return (
    <IconConfirm
      Icon={Icon}
      label={`${verb} ${row.title}`}
      title={`${verb} “${row.title}”?`}
      description={row.repeats ? seriesEffect : effect}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      onConfirm={() => run(() => action({ eventId: row.id }))}
    />
  );
}

function RowActions({ row, timezone }: { row: EventRowView; timezone: string }) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const run = useAct().act;
  return (
    <div className="-mr-2 flex justify-end gap-0.5">
      <Button
        ref={editButton}
        variant="ghost"
        size="sm"
        aria-label={`Edit ${row.title}`}
        onClick={() => setEditing(true)}
      >
        <Pencil className="size-4" aria-hidden />
      </Button>
      <EventFormDialog
        open={editing}
        onOpenChange={setEditing}
        opener={editButton}
        eventId={row.id}
        initial={row.form}
        timezone={timezone}
      />
      {row.status !== "cancelled" ? <ChangeConfirm row={row} change="cancel" run={run} /> : null}
      <ChangeConfirm row={row} change="delete" run={run} />
    </div>
  );
}

/** Below an event's title: how it repeats, and its page (shortened). */
function EventFacts({ row }: { row: EventRowView }) {
  return (
    <>
      {row.repeats ? (
        <p className="flex items-center gap-1 text-xs text-zinc-600">
          <Repeat className="size-3 shrink-0" aria-hidden />
          {row.repeats}
        </p>
      ) : null}
      {row.url ? (
        <a
          href={row.url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="block text-xs wrap-anywhere text-indigo-600 hover:underline"
        >
          {row.url.replace(/^https?:\/\//, "").slice(0, 48)}
        </a>
      ) : null}
    </>
  );
}

export function EventsTable({
  rows,
  canManage,
  timezone,
  emptyMessage,
}: {
  rows: EventRowView[];
  canManage: boolean;
  timezone: string;
  emptyMessage: React.ReactNode;
}) {
  const columns: ColumnDef<EventRowView>[] = [
    {
      id: "title",
      header: "Title",
      cell: ({ row }) => (
        <RecordLinkCell href={`/knowledge/events/${row.original.id}`} below={<EventFacts row={row.original} />}>
          {row.original.title}
        </RecordLinkCell>
      ),
    },
    {
      id: "starts",
      header: "Starts",
      cell: ({ row }) => (
        <MomentCell
          moment={row.original.starts}
          title={`${row.original.starts.full} · sent as ${row.original.startsOriginal}`}
        />
      ),
    },
    { id: "ends", header: "Ends", cell: ({ row }) => <MomentCell moment={row.original.ends} /> },
    {
      id: "location",
      header: "Location",
      cell: ({ row }) => row.original.location || none,
    },
    {
      id: "price",
      header: "Price",
      cell: ({ row }) => row.original.price || none,
    },
    {
      id: "recurring",
      header: "Recurring",
      cell: ({ row }) => (row.original.recurring ? <span className="capitalize">{row.original.recurring}</span> : none),
    },
    {
      id: "status",
      header: "Status",
      cell: ({ row }) => (
        <span className="flex flex-wrap gap-1">
          <Badge tone={row.original.status === "cancelled" ? "red" : "green"} dot>
            {row.original.status}
          </Badge>
          {row.original.past ? <Badge tone="neutral">past</Badge> : null}
        </span>
      ),
    },
  ];
  if (canManage) {
    columns.push({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => <RowActions row={row.original} timezone={timezone} />,
      meta: { stickyActions: true },
    });
  }
  return (
    <DataTable
      label="Events"
      columns={columns}
      data={rows}
      rowClassName={(row) => (row.past || row.status === "cancelled" ? "text-zinc-500" : undefined)}
      emptyMessage={emptyMessage}
    />
  );
}
