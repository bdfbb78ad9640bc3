"use client";

import { Search } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { inputClasses } from "@/components/ui/field";

const selectClasses =
  "h-9 rounded-md border-0 bg-white py-1.5 pr-8 pl-3 text-sm text-zinc-800 shadow-sm ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600";

/** Search, filters and sort live in the URL (shareable); any change starts again at the first page. */
export function EventsToolbar() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [query, setQuery] = useState(params.get("q") ?? "");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const key of ["cursor", "dir"]) next.delete(key);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    router.replace(`${pathname}?${next}`, { scroll: false });
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <div className="relative flex-1">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" aria-hidden />
        <label htmlFor="events-search" className="sr-only">
          Search events
        </label>
        <input
          id="events-search"
          type="search"
          placeholder="Search title, location or description"
          className={`${inputClasses} pl-9`}
          value={query}
          onChange={(event) => {
            const value = event.target.value;
            setQuery(value);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => update({ q: value.trim() }), 300);
          }}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <label className="sr-only" htmlFor="events-status">
          Status
        </label>
        <select id="events-status" className={selectClasses} value={params.get("status") ?? ""} onChange={(event) => update({ status: event.target.value })}>
          <option value="">Any status</option>
          <option value="upcoming">Upcoming</option>
          <option value="cancelled">Cancelled</option>
        </select>
        <label className="sr-only" htmlFor="events-when">
          When
        </label>
        <select id="events-when" className={selectClasses} value={params.get("when") ?? ""} onChange={(event) => update({ when: event.target.value })}>
          <option value="">Past and future</option>
          <option value="upcoming">Not started yet</option>
          <option value="past">Already started</option>
        </select>
        <label className="sr-only" htmlFor="events-sort">
          Sort
        </label>
        <select id="events-sort" className={selectClasses} value={params.get("sort") ?? ""} onChange={(event) => update({ sort: event.target.value })}>
          <option value="">Sort: start time</option>
          <option value="-starts_at">Sort: latest start first</option>
          <option value="title">Sort: title A–Z</option>
          <option value="-title">Sort: title Z–A</option>
        </select>
      </div>
    </div>
  );
}
