"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import { useEffect, useRef, useState } from "react";
import { cn } from "./cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Extra classes for this column's header cell. */
    headerClassName?: string;
    /** Extra classes for this column's body cells. */
    cellClassName?: string;
    /** Row actions: on a phone the column stays at the right edge while the others scroll under it. */
    stickyActions?: boolean;
  }
}

export type DataTableProps<TData> = {
  /** Accessible name of the table, e.g. "API keys". */
  label: string;
  // Columns of different value types share one array; tanstack's own docs type it this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<TData, any>[];
  data: TData[];
  /**
   * Stable row ids keep React state (open dialogs, focus) attached to the right row across refreshes;
   * without getRowId, the row's own `id`.
   */
  getRowId?: (row: TData) => string;
  rowClassName?: (row: TData) => string | undefined;
  /** Shown in a single full-width row when there is no data. */
  emptyMessage?: React.ReactNode;
  className?: string;
};

/*
 * On a phone (below the sm breakpoint) a wide table scrolls sideways inside its box: its first column
 * (what the row is) stays at the left edge, an actions column (meta.stickyActions) at the right, and a
 * line under the table says that more columns are there while any are out of view.
 */
const FIRST_COLUMN = "max-sm:sticky max-sm:left-0 max-sm:z-[1]";
const ACTIONS_COLUMN = "max-sm:sticky max-sm:right-0 max-sm:z-[1]";

function useOverflowing() {
  const ref = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () =>
      setOverflowing(box.scrollWidth > box.clientWidth + 1 && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    box.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      box.removeEventListener("scroll", measure);
    };
  }, []);
  return { ref, overflowing };
}

/** A table driven by @tanstack/react-table column definitions, rendered with the shared table styles. */
export function DataTable<TData>({
  label,
  columns,
  data,
  getRowId,
  rowClassName,
  emptyMessage = "Nothing to show.",
  className,
}: DataTableProps<TData>) {
  // The table instance is recreated from props each render, so nothing is memoised across renders.
  // eslint-disable-next-line react-hooks/incompatible-library -- nothing is memoised (see above)
  const table = useReactTable({
    data,
    columns,
    getRowId: getRowId ?? ((row) => (row as { id: string }).id),
    getCoreRowModel: getCoreRowModel(),
  });
  const rows = table.getRowModel().rows;
  const { ref, overflowing } = useOverflowing();
  const stickyClass = (index: number, sticky: boolean | undefined, background: string) =>
    index === 0 ? cn(FIRST_COLUMN, background) : sticky ? cn(ACTIONS_COLUMN, background) : undefined;
  return (
    <>
      <Table aria-label={label} containerClassName={className} containerRef={ref}>
        {/* An empty table on a phone is its message alone: headers wider than the screen would cut it off. */}
        <TableHeader className={rows.length === 0 ? "max-sm:hidden" : undefined}>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header, index) => (
                <TableHead
                  key={header.id}
                  className={cn(
                    header.column.columnDef.meta?.headerClassName,
                    stickyClass(index, header.column.columnDef.meta?.stickyActions, "max-sm:bg-zinc-50"),
                  )}
                >
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length} className="py-10 text-center text-zinc-500">
                {emptyMessage}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => (
              <TableRow
                key={row.id}
                className={cn("transition-colors hover:bg-zinc-50/60", rowClassName?.(row.original))}
              >
                {row.getVisibleCells().map((cell, index) => (
                  <TableCell
                    key={cell.id}
                    className={cn(
                      cell.column.columnDef.meta?.cellClassName,
                      stickyClass(index, cell.column.columnDef.meta?.stickyActions, "max-sm:bg-white"),
                    )}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      {overflowing ? (
        <p className="mt-1.5 text-right text-xs text-zinc-500 sm:hidden" aria-hidden>
          Scroll sideways for more columns →
        </p>
      ) : null}
    </>
  );
}
