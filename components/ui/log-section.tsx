import Link from "next/link";
import { buttonClasses } from "./button";
import { cn } from "./cn";

/** JSON indented for reading; anything else as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A delivery log's card (inbound Recent Deliveries, outbound Delivery attempts): heading, note, controls, log. */
export function LogSection({
  id,
  title,
  note,
  controls,
  className,
  children,
}: {
  id: string;
  title: string;
  note: React.ReactNode;
  controls?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={cn("rounded-xl bg-white shadow-sm ring-1 ring-zinc-200", className)}>
      <div
        className={cn(
          "flex flex-col gap-3 border-b border-zinc-200 px-5 py-4",
          "sm:flex-row sm:items-center sm:justify-between sm:px-6",
        )}
      >
        <div>
          <h2 id={id} className="text-base font-semibold text-zinc-900">
            {title}
          </h2>
          <p className="text-xs text-zinc-500">{note}</p>
        </div>
        {controls}
      </div>
      <div className="space-y-4 p-4 sm:p-6">{children}</div>
    </section>
  );
}

type PagerLink = { href: string; enabled: boolean };

function PagerLink({ href, enabled, children }: PagerLink & { children: React.ReactNode }) {
  return (
    <Link
      href={href}
      className={buttonClasses("secondary", "sm", enabled ? "" : "pointer-events-none opacity-50")}
      aria-disabled={!enabled}
      tabIndex={enabled ? undefined : -1}
      scroll={false}
    >
      {children}
    </Link>
  );
}

/** A log's "← Newer" (or "← Newest") and "Older →"; a link with nowhere to go stays in place, inert. */
export function LogPager({
  label,
  back,
  backText,
  older,
}: {
  label: string;
  back: PagerLink;
  backText: string;
  older: PagerLink;
}) {
  return (
    <nav aria-label={label} className="flex items-center justify-end gap-2">
      <PagerLink {...back}>
        <span aria-hidden>←</span> {backText}
      </PagerLink>
      <PagerLink {...older}>
        Older <span aria-hidden>→</span>
      </PagerLink>
    </nav>
  );
}
