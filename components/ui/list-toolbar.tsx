"use client";

import { Search } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { cn } from "./cn";
import { inputClasses } from "./field";
import { useDebouncedInput } from "./use-debounced-input";

/*
 * A list's search and filters live in its URL, so a filtered view can be shared and survives a reload.
 * Any change starts the list again at its first page (the keyset cursor is dropped), and closes what the
 * URL had open (`reset` names those parameters).
 */

export function useListParams({ reset = ["cursor", "dir"], push = false }: { reset?: string[]; push?: boolean } = {}) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const key of reset) next.delete(key);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    const search = next.toString();
    const href = search ? `${pathname}?${search}` : pathname;
    if (push) router.push(href, { scroll: false });
    else router.replace(href, { scroll: false });
  };
  return { params, update };
}

/** A search box that applies what is typed after a short pause (300 ms), not on every key. */
export function ListSearch(props: {
  id: string;
  label: string;
  placeholder: string;
  initial: string;
  maxLength?: number;
  onSearch: (value: string) => void;
}) {
  const query = useDebouncedInput(props.initial, 300, (value) => props.onSearch(value.trim()));
  return (
    <div className="relative flex-1">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400"
        aria-hidden
      />
      <label htmlFor={props.id} className="sr-only">
        {props.label}
      </label>
      <input
        id={props.id}
        type="search"
        placeholder={props.placeholder}
        className={`${inputClasses} pl-9`}
        value={query.value}
        maxLength={props.maxLength}
        onChange={(event) => query.change(event.target.value)}
      />
    </div>
  );
}

const SELECT_CLASSES = {
  md:
    "h-9 rounded-md border-0 bg-white py-1.5 pr-8 pl-3 text-sm text-zinc-800 shadow-sm " +
    "ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600",
  sm:
    "h-8 rounded-md border-0 bg-white py-1 pr-8 pl-2.5 text-sm text-zinc-800 shadow-sm " +
    "ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600",
};

/** A filter's select with its (visually hidden) label; the first option is the unfiltered one. */
export function ListFilter(props: {
  id: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (value: string) => void;
  size?: "sm" | "md";
  className?: string;
}) {
  return (
    <>
      <label className="sr-only" htmlFor={props.id}>
        {props.label}
      </label>
      <select
        id={props.id}
        className={cn(SELECT_CLASSES[props.size ?? "md"], props.className)}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

export type FilterSpec = { id: string; label: string; name: string; options: Array<[value: string, label: string]> };

/** A row of URL-kept filters, one select per spec (its first option the unfiltered one). */
export function ListFilters({
  filters,
  size,
  reset,
  push,
}: {
  filters: FilterSpec[];
  size?: "sm" | "md";
  reset?: string[];
  push?: boolean;
}) {
  const { params, update } = useListParams({ reset, push });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {filters.map((filter) => (
        <ListFilter
          key={filter.id}
          id={filter.id}
          label={filter.label}
          size={size}
          value={params.get(filter.name) ?? ""}
          options={filter.options.map(([value, label]) => ({ value, label }))}
          onChange={(value) => update({ [filter.name]: value })}
        />
      ))}
    </div>
  );
}

const ROW_FROM = { sm: "sm:flex-row sm:items-center", lg: "lg:flex-row lg:items-center" };

/** A list's search (the `q` parameter) and its filters, in one row from the `rowFrom` breakpoint up. */
export function ListToolbar({
  search,
  filters,
  rowFrom = "sm",
}: {
  search: { id: string; label: string; placeholder: string; maxLength?: number };
  filters: FilterSpec[];
  rowFrom?: keyof typeof ROW_FROM;
}) {
  const { params, update } = useListParams();
  return (
    <div className={cn("flex flex-col gap-3", ROW_FROM[rowFrom])}>
      <ListSearch {...search} initial={params.get("q") ?? ""} onSearch={(q) => update({ q })} />
      <ListFilters filters={filters} />
    </div>
  );
}
