"use client";

import { Building2, Mail } from "lucide-react";
import Link from "next/link";
import { startTransition, useOptimistic, useState } from "react";
import { toast } from "sonner";
import { cn } from "@/components/ui/cn";
import { leadCountLabel } from "@/lib/leads/display";
import { changeLeadStageAction } from "../actions";
import type { LeadCardView, StageOption } from "../view-model";
import { MoveLeadMenu } from "./move-lead-menu";
import { stageTone } from "./stage-badge";

export type BoardColumnView = { key: string; label: string; leads: LeadCardView[]; hasMore: boolean; count: number };

type Move = { leadId: string; to: string };

/** The columns as they look with a move applied (the server's answer replaces them when it arrives). */
function applyMove(columns: BoardColumnView[], { leadId, to }: Move): BoardColumnView[] {
  const lead = columns.flatMap((column) => column.leads).find((candidate) => candidate.id === leadId);
  if (!lead || lead.stage === to) return columns;
  const moved = { ...lead, stage: to };
  return columns.map((column) => {
    if (column.key === lead.stage)
      return { ...column, count: column.count - 1, leads: column.leads.filter((candidate) => candidate.id !== leadId) };
    if (column.key !== to) return column;
    const leads = [...column.leads, moved].sort((a, b) =>
      a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1,
    );
    return { ...column, count: column.count + 1, leads };
  });
}

const dots: Record<string, string> = {
  neutral: "bg-zinc-400",
  indigo: "bg-indigo-500",
  amber: "bg-amber-500",
  green: "bg-emerald-500",
  red: "bg-red-500",
};

export function LeadsBoard({
  columns,
  canManage,
  countCap,
}: {
  columns: BoardColumnView[];
  canManage: boolean;
  countCap: number;
}) {
  const [shown, addMove] = useOptimistic(columns, applyMove);
  const [dragging, setDragging] = useState<{ leadId: string; from: string } | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const stages: StageOption[] = columns.map(({ key, label }) => ({ key, label }));

  const move = (lead: LeadCardView, to: string) => {
    if (lead.stage === to) return;
    const label = stages.find((stage) => stage.key === to)?.label ?? to;
    startTransition(async () => {
      addMove({ leadId: lead.id, to });
      const result = await changeLeadStageAction({ leadId: lead.id, stage: to });
      if (result.ok) toast.success(`Moved “${lead.displayName}” to ${label}.`);
      else toast.error(result.error);
    });
  };

  return (
    <div className="relative -mx-4 overflow-x-auto px-4 pb-4 sm:-mx-6 sm:px-6 lg:-mx-8 lg:px-8">
      <div className="grid auto-cols-[minmax(13rem,1fr)] grid-flow-col items-start gap-3">
        {shown.map((column, index) => {
          const canDrop = dragging !== null && dragging.from !== column.key;
          return (
            <section
              key={column.key}
              aria-labelledby={`stage-${column.key}`}
              className={cn(
                "flex min-w-0 flex-col rounded-xl bg-zinc-100/80 ring-1 ring-zinc-200 transition-colors",
                canDrop && dropTarget === column.key && "bg-indigo-50 ring-2 ring-indigo-300",
              )}
              onDragOver={(event) => {
                if (!canDrop) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = "move";
                setDropTarget(column.key);
              }}
              onDragLeave={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropTarget(null);
              }}
              onDrop={(event) => {
                event.preventDefault();
                const lead =
                  column.key !== dragging?.from
                    ? shown
                        .flatMap((candidate) => candidate.leads)
                        .find((candidate) => candidate.id === dragging?.leadId)
                    : undefined;
                setDragging(null);
                setDropTarget(null);
                if (lead) move(lead, column.key);
              }}
            >
              <header className="flex items-center justify-between gap-2 px-3 pt-3 pb-2">
                <h2
                  id={`stage-${column.key}`}
                  className="flex min-w-0 items-center gap-2 text-sm font-semibold text-zinc-900"
                >
                  <span
                    aria-hidden
                    className={cn("size-2 shrink-0 rounded-full", dots[stageTone(column.key, index)])}
                  />
                  <span className="truncate">{column.label}</span>
                </h2>
                <span
                  className={
                    "rounded-full bg-white px-2 py-0.5 text-xs font-medium " +
                    "text-zinc-600 tabular-nums ring-1 ring-zinc-200"
                  }
                  title={leadCountLabel(column.count, countCap)}
                >
                  {column.count > countCap
                    ? `${countCap.toLocaleString("en-US")}+`
                    : column.count.toLocaleString("en-US")}
                </span>
              </header>
              <ul className="flex min-h-24 flex-col gap-2 px-2 pb-2" aria-label={`${column.label} leads`}>
                {column.leads.length === 0 ? (
                  <li
                    className={
                      "flex h-20 items-center justify-center rounded-lg border " +
                      "border-dashed border-zinc-300 text-xs text-zinc-500"
                    }
                  >
                    {canDrop ? "Drop here" : "No leads in this stage"}
                  </li>
                ) : null}
                {column.leads.map((lead) => (
                  <li
                    key={lead.id}
                    draggable={canManage}
                    onDragStart={(event) => {
                      event.dataTransfer.setData("text/plain", lead.id);
                      event.dataTransfer.effectAllowed = "move";
                      setDragging({ leadId: lead.id, from: column.key });
                    }}
                    onDragEnd={() => {
                      setDragging(null);
                      setDropTarget(null);
                    }}
                    className={cn(
                      "rounded-lg bg-white p-3 shadow-sm ring-1 ring-zinc-200 transition-shadow",
                      canManage && "cursor-grab hover:shadow-md active:cursor-grabbing",
                      dragging?.leadId === lead.id && "opacity-50",
                    )}
                  >
                    <div className="flex items-start justify-between gap-2">
                      <Link
                        href={`/leads/${lead.id}`}
                        className={
                          "min-w-0 text-sm font-medium break-words text-zinc-900 " +
                          "hover:text-indigo-600 hover:underline"
                        }
                        draggable={false}
                      >
                        {lead.displayName}
                      </Link>
                      {canManage ? (
                        <MoveLeadMenu
                          leadName={lead.displayName}
                          current={lead.stage}
                          stages={stages}
                          onMove={(to) => move(lead, to)}
                        />
                      ) : null}
                    </div>
                    {lead.company ? (
                      <p className="mt-1.5 flex items-center gap-1.5 text-xs text-zinc-600">
                        <Building2 className="size-3.5 shrink-0 text-zinc-400" aria-hidden />
                        <span className="truncate">{lead.company}</span>
                      </p>
                    ) : null}
                    {lead.email && lead.email !== lead.displayName ? (
                      <p className="mt-1 flex items-center gap-1.5 text-xs text-zinc-600">
                        <Mail className="size-3.5 shrink-0 text-zinc-400" aria-hidden />
                        <span className="truncate">{lead.email}</span>
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
              {column.hasMore ? (
                <Link
                  href={`/leads?stage=${encodeURIComponent(column.key)}`}
                  className={
                    "mx-2 mb-2 rounded-md px-2 py-1.5 text-center text-xs font-medium " +
                    "text-indigo-600 hover:bg-white hover:underline"
                  }
                >
                  Show more <span className="sr-only">{column.label} leads</span> in the table
                </Link>
              ) : null}
            </section>
          );
        })}
      </div>
    </div>
  );
}
