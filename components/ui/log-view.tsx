"use client";

import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useRef } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogBody, DialogContent } from "@/components/ui/dialog";
import { inputClasses } from "@/components/ui/field";
import { ListSearch, useListParams } from "@/components/ui/list-toolbar";
import { cn } from "./cn";
import { useDebouncedInput } from "./use-debounced-input";

/*
 * What the two delivery logs share (inbound Recent Deliveries, outbound Delivery attempts): the time
 * cell that opens an entry, the detail dialog's frame and its copyable text blocks, and the search box
 * and date range above the table. Each log keeps its own columns and fields; these keep their look and
 * keyboard behaviour the same.
 */

/** `time` in the account's zone with seconds; `full` (the hover) names the zone and the UTC instant. */
export type LogTime = { time: string; relative: string; iso: string; full: string };

const timeText = (entry: LogTime) => (
  <>
    <time
      dateTime={entry.iso}
      title={entry.full}
      className="block font-medium whitespace-nowrap text-zinc-900 group-hover:text-indigo-600"
    >
      {entry.time}
    </time>
    <span className="text-xs text-zinc-500">{entry.relative}</span>
  </>
);

/** The first cell of a log row: its time and how long ago, opening the entry (a link when it has a URL). */
export function LogTimeCell({
  entry,
  label,
  href,
  onOpen,
}: {
  entry: LogTime;
  label: string;
  href?: string;
  onOpen?: () => void;
}) {
  if (href) {
    return (
      <Link href={href} scroll={false} className="group block" aria-label={label}>
        {timeText(entry)}
      </Link>
    );
  }
  return (
    <button type="button" onClick={onOpen} className="group block text-left" aria-label={label}>
      {timeText(entry)}
    </button>
  );
}

/** A log table's "Time" column: each entry's LogTimeCell, opening it as `open` says (a URL or a callback). */
export function logTimeColumn<T extends LogTime>(
  open: (entry: T) => { label: string; href?: string; onOpen?: () => void },
): ColumnDef<T> {
  return {
    id: "time",
    header: "Time",
    cell: ({ row }) => <LogTimeCell entry={row.original} {...open(row.original)} />,
  };
}

/** The dialog of one log entry; closing it calls onClose (which may also change the URL). */
export function LogDetailDialog(props: {
  title: string;
  description: string;
  icon: React.ReactNode;
  onClose: () => void;
  children: React.ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent title={props.title} description={props.description} icon={props.icon} size="lg">
        <DialogBody>{props.children}</DialogBody>
      </DialogContent>
    </Dialog>
  );
}

/** A titled list of HTTP headers (received or sent), names and values in monospace. */
export function LogHeaders(props: {
  id: string;
  title: string;
  note?: string;
  headers: ReadonlyArray<readonly [string, string]>;
}) {
  return (
    <section aria-labelledby={props.id}>
      <h3 id={props.id} className="mb-2 text-sm font-semibold text-zinc-900">
        {props.title}
        {props.note ? <span className="font-normal text-zinc-500"> ({props.note})</span> : null}
      </h3>
      <dl className="divide-y divide-zinc-100 rounded-lg ring-1 ring-zinc-200">
        {props.headers.map(([name, value]) => (
          <div key={name} className="grid gap-1 px-3 py-2 text-xs sm:grid-cols-[12rem_1fr] sm:gap-3">
            <dt className="font-mono text-zinc-500">{name}</dt>
            <dd className="font-mono break-all text-zinc-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A titled block of raw text (a body, a response) with a copy button when there is something to copy. */
export function LogTextBlock(props: {
  id: string;
  title: string;
  note: string;
  text: string;
  emptyText: string;
  copyName: string;
  wrap?: boolean;
}) {
  return (
    <section aria-labelledby={props.id}>
      <div className="mb-2 flex items-center justify-between">
        <h3 id={props.id} className="text-sm font-semibold text-zinc-900">
          {props.title} <span className="font-normal text-zinc-500">({props.note})</span>
        </h3>
        {props.text ? (
          <CopyButton
            value={props.text}
            size="sm"
            toastMessage={`${props.copyName} copied`}
            aria-label={`Copy ${props.copyName.toLowerCase()}`}
          />
        ) : null}
      </div>
      <pre
        tabIndex={0}
        className={
          `max-h-80 overflow-auto rounded-lg bg-zinc-950 p-4 text-xs leading-5 ` +
          `text-zinc-100 ${props.wrap ? "whitespace-pre-wrap" : ""}`
        }
      >
        <code>{props.text || props.emptyText}</code>
      </pre>
    </section>
  );
}

/*
 * A date input applies its value after a pause or when it loses focus: typing a year digit by digit
 * passes through dates like 0002-05-01, which must not each reload the list.
 */
function LogDateInput(props: {
  id: string;
  label: string;
  initial: string;
  problemId?: string;
  onApply: (value: string) => void;
}) {
  const applied = useRef(props.initial);
  const date = useDebouncedInput(props.initial, 600, (next) => {
    if (next === applied.current) return;
    applied.current = next;
    props.onApply(next);
  });
  return (
    <div className="flex min-w-0 flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
      <label htmlFor={props.id} className="text-sm font-medium text-zinc-700">
        {props.label}
      </label>
      <input
        id={props.id}
        type="date"
        value={date.value}
        aria-invalid={props.problemId ? true : undefined}
        aria-describedby={props.problemId}
        className={cn(inputClasses, "min-w-0 py-1.5 sm:w-40")}
        onChange={(event) => date.change(event.target.value)}
        onBlur={date.flush}
        onKeyDown={(event) => {
          if (event.key === "Enter") date.flush();
        }}
      />
    </div>
  );
}

const RANGE_ENDS = [
  { param: "from", label: "From" },
  { param: "to", label: "To" },
] as const;

/**
 * A log's search box and its "From"/"To" days (the URL's `q`, `from` and `to`), combined with the log's
 * other filters; any change starts again at the newest entry (`reset` names the paging parameters).
 * `problem` is the server's reason for not applying the dates, shown beside them.
 */
export function LogFilterBar(props: {
  id: string;
  searchLabel: string;
  placeholder: string;
  maxLength: number;
  reset: string[];
  problem: string | null;
}) {
  const { params, update } = useListParams({ reset: props.reset, push: true });
  const problemId = props.problem ? `${props.id}-range-problem` : undefined;
  return (
    <div className="space-y-2">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
        <ListSearch
          id={`${props.id}-search`}
          label={props.searchLabel}
          placeholder={props.placeholder}
          maxLength={props.maxLength}
          initial={params.get("q") ?? ""}
          onSearch={(q) => update({ q })}
        />
        <div className="grid grid-cols-2 gap-3 sm:flex" role="group" aria-label="Date range">
          {RANGE_ENDS.map(({ param, label }) => (
            <LogDateInput
              key={param}
              id={`${props.id}-${param}`}
              label={label}
              initial={params.get(param) ?? ""}
              problemId={problemId}
              onApply={(value) => update({ [param]: value })}
            />
          ))}
        </div>
      </div>
      {props.problem ? (
        <p id={problemId} role="alert" className="text-sm text-red-700">
          {props.problem}
        </p>
      ) : null}
    </div>
  );
}
