/** One term and its value in a `<dl>`: the small grey label above the value, as detail panels show them. */
export function DetailItem({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium text-zinc-500">{term}</dt>
      <dd className="mt-0.5 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}

/** A `<dl>` of terms and their values, one DetailItem each. */
export function DetailList({
  entries,
  className = "",
}: {
  entries: ReadonlyArray<readonly [string, React.ReactNode]>;
  className?: string;
}) {
  return (
    <dl className={`space-y-3 text-sm ${className}`}>
      {entries.map(([term, value]) => (
        <DetailItem key={term} term={term}>
          {value}
        </DetailItem>
      ))}
    </dl>
  );
}
