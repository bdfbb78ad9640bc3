/** A date/time already formatted on the server in the account's zone (see lib/platform/format/date-time.ts). */
export type Moment = { date: string; time: string; full: string };

/** A compact two-line table cell: the date, then the time (or `below`); `empty` when there is no moment. */
export function MomentCell({
  moment,
  below,
  title,
  empty = "—",
}: {
  moment: Moment | null;
  below?: React.ReactNode;
  title?: string;
  empty?: string;
}) {
  // zinc-500: a word such as "never" must be readable (WCAG AA contrast on white).
  if (!moment) return <span className="text-zinc-500">{empty}</span>;
  return (
    <div className="whitespace-nowrap" title={title ?? moment.full}>
      <p>{moment.date}</p>
      <p className="mt-0.5 text-xs text-zinc-500">{below ?? moment.time}</p>
    </div>
  );
}
