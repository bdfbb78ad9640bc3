import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { Fragment } from "react";
import { cn } from "./cn";
import { DetailList } from "./detail-item";

/*
 * The pieces of a detail page (an event, a lead, a subscription, a conversation): the link back to its
 * list, titled cards, and the term/value rows of a card's details.
 */

/** "← All leads": back to the list a detail page belongs to. */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-zinc-500 hover:text-zinc-900"
    >
      <ArrowLeft className="size-4" aria-hidden />
      {children}
    </Link>
  );
}

export const cardClasses = "rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200 sm:p-6";

/** A card named by its heading (`id` labels the section). */
export function Card({
  id,
  title,
  description,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={cn(cardClasses, className)}>
      <h2 id={id} className="text-sm font-semibold text-zinc-900">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-zinc-600">{description}</p> : null}
      {children}
    </section>
  );
}

/** One term and its value in a card's `<dl>`; on wider screens the term takes one of `columns` columns. */
export function DetailRow({
  term,
  columns = 3,
  children,
}: {
  term: string;
  columns?: 3 | 4;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("grid gap-1 py-3 sm:gap-4", columns === 3 ? "sm:grid-cols-3" : "sm:grid-cols-4")}>
      <dt className="text-sm font-medium text-zinc-500">{term}</dt>
      <dd className={cn("text-sm break-words text-zinc-900", columns === 3 ? "sm:col-span-2" : "sm:col-span-3")}>
        {children}
      </dd>
    </div>
  );
}

/**
 * A detail page's "Record" card: when the record was created and changed (then its other `moments`, such as
 * a lead's stage change), then its id. `noun` names the id ("Lead ID") and the card ("lead-record").
 */
export function RecordCard({
  noun,
  record,
  when,
  moments = [],
}: {
  noun: string;
  record: { id: string; createdAt: Date; updatedAt: Date };
  when: (date: Date) => React.ReactNode;
  moments?: ReadonlyArray<readonly [string, Date]>;
}) {
  // A uuid may wrap after a hyphen (a hyphen before a digit is no break opportunity of its own), and
  // anywhere only when a part still does not fit: never its last character alone on a line.
  const idCode = (
    <code key="id" className="font-mono text-xs [overflow-wrap:anywhere]">
      {record.id.split("-").map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <>
              -<wbr />
            </>
          ) : null}
          {part}
        </Fragment>
      ))}
    </code>
  );
  const entries: Array<readonly [string, React.ReactNode]> = [
    ["Created", when(record.createdAt)],
    ["Updated", when(record.updatedAt)],
    ...moments.map(([term, date]) => [term, when(date)] as const),
    [`${noun} ID`, idCode],
  ];
  return (
    <Card id={`${noun.toLowerCase()}-record`} title="Record">
      <DetailList className="mt-2" entries={entries} />
    </Card>
  );
}
