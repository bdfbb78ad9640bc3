/** A dashboard section's heading (its `id` labels the section) and, when given, the sentence under it. */
export function SectionHeading({ id, title, children }: { id: string; title: string; children?: React.ReactNode }) {
  return (
    <>
      <h2 id={id} className="text-base font-semibold text-zinc-900">
        {title}
      </h2>
      {children ? <p className="mt-1 text-sm text-zinc-600">{children}</p> : null}
    </>
  );
}
