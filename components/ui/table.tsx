import { cn } from "./cn";

/*
 * Styled table elements. Server components use them directly; DataTable (client) builds on them.
 * Give every table an accessible name (aria-label), which tests and screen readers rely on.
 */

export function Table({
  className,
  containerClassName,
  containerRef,
  ...props
}: React.TableHTMLAttributes<HTMLTableElement> & {
  containerClassName?: string;
  containerRef?: React.Ref<HTMLDivElement>;
}) {
  return (
    // relative: absolutely positioned content (visually hidden labels) stays inside the scrolling box
    // instead of widening the page.
    <div
      ref={containerRef}
      className={cn("relative overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-zinc-200", containerClassName)}
    >
      <table className={cn("min-w-full divide-y divide-zinc-200 text-left text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn("bg-zinc-50/80", className)} {...props} />;
}

export function TableBody({ className, ...props }: React.HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-zinc-100", className)} {...props} />;
}

export function TableRow({ className, ...props }: React.HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn("align-top", className)} {...props} />;
}

export function TableHead({ className, ...props }: React.ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cn(
        "px-4 py-2.5 text-xs font-semibold tracking-wide whitespace-nowrap text-zinc-500 uppercase",
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("px-4 py-3 text-zinc-700", className)} {...props} />;
}
