import { Columns3, Rows3 } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";

/** Table or board: two links styled as one segmented control; the current one is marked for AT. */
export function ViewToggle({
  current,
  tableHref,
  boardHref,
}: {
  current: "table" | "board";
  tableHref: string;
  boardHref: string;
}) {
  const item = (active: boolean) =>
    cn(
      "inline-flex h-9 items-center gap-1.5 px-3 text-sm font-medium " +
        "transition-colors focus-visible:relative focus-visible:z-10",
      active ? "bg-indigo-50 text-indigo-700" : "bg-white text-zinc-600 hover:bg-zinc-50 hover:text-zinc-900",
    );
  return (
    <nav
      aria-label="Leads view"
      className="inline-flex overflow-hidden rounded-md shadow-sm ring-1 ring-zinc-300 ring-inset"
    >
      <Link
        href={tableHref}
        aria-current={current === "table" ? "page" : undefined}
        className={item(current === "table")}
      >
        <Rows3 className="size-4" aria-hidden />
        Table
      </Link>
      <Link
        href={boardHref}
        aria-current={current === "board" ? "page" : undefined}
        className={cn(item(current === "board"), "border-l border-zinc-300")}
      >
        <Columns3 className="size-4" aria-hidden />
        Board
      </Link>
    </nav>
  );
}
