import Link from "next/link";
import { buttonClasses } from "./button";
import { cn } from "./cn";

export function EmptyState({
  icon,
  title,
  children,
  action,
  className,
}: {
  icon?: React.ReactNode;
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-14 text-center",
        className,
      )}
    >
      {icon ? (
        <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
          {icon}
        </div>
      ) : null}
      <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
      {children ? <div className="mt-2 max-w-md text-sm leading-6 text-zinc-600">{children}</div> : null}
      {action ? <div className="mt-6 flex flex-wrap justify-center gap-3">{action}</div> : null}
    </div>
  );
}

/** A detail page's "not found": what is missing, why it may be, and the way back to its list. */
export function NotFoundState({
  icon,
  title,
  backHref,
  backLabel,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  backHref: string;
  backLabel: string;
  children: React.ReactNode;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      action={
        <Link href={backHref} className={buttonClasses("primary")}>
          {backLabel}
        </Link>
      }
    >
      <p>{children}</p>
    </EmptyState>
  );
}
