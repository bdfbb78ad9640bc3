"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import { cn } from "./cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Extra classes for this column's header cell. */
    headerClassName?: string;
    /** Extra classes for this column's body cells. */
    cellClassName?: string;
  }
}

export type DataTableProps<TData> = {
  /** Accessible name of the table, e.g. "API keys". */
  label: string;
  // Columns of different value types share one array; tanstack's own docs type it this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<TData, any>[];
  data: TData[];
  /** Stable row ids keep React state (open dialogs, focus) attached to the right row across refreshes. */
  getRowId: (row: TData) => string;
  rowClassName?: (row: TData) => string | undefined;
  /** Shown in a single full-width row when there is no data. */
  emptyMessage?: React.ReactNode;
  className?: string;
};

/** A table driven by @tanstack/react-table column definitions, rendered with the shared table styles. */
export function DataTable<TData>({ label, columns, data, getRowId, rowClassName, emptyMessage = "Nothing to show.", className }: DataTableProps<TData>) {
  // eslint-disable-next-line react-hooks/incompatible-library -- the table instance is recreated from props each render; nothing is memoised across renders.
  const table = useReactTable({ data, columns, getRowId, getCoreRowModel: getCoreRowModel() });
  const rows = table.getRowModel().rows;
  return (
    <Table aria-label={label} containerClassName={className}>
      <TableHeader>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id}>
            {group.headers.map((header) => (
              <TableHead key={header.id} className={header.column.columnDef.meta?.headerClassName}>
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
            <TableRow key={row.id} className={cn("transition-colors hover:bg-zinc-50/60", rowClassName?.(row.original))}>
              {row.getVisibleCells().map((cell) => (
                <TableCell key={cell.id} className={cell.column.columnDef.meta?.cellClassName}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
