"use client";

import { Search } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { inputClasses } from "@/components/ui/field";
import type { StageOption } from "../view-model";

const selectClasses =
  "h-9 rounded-md border-0 bg-white py-1.5 pr-8 pl-3 text-sm text-zinc-800 shadow-sm ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600";

/** Search and the stage filter live in the URL (shareable); any change starts again at the first page. */
export function LeadsToolbar({ stages }: { stages: StageOption[] }) {
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
    const search = next.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <div className="relative flex-1">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" aria-hidden />
        <label htmlFor="leads-search" className="sr-only">
          Search leads
        </label>
        <input
          id="leads-search"
          type="search"
          placeholder="Search name, email or company"
          className={`${inputClasses} pl-9`}
          value={query}
          maxLength={200}
          onChange={(event) => {
            const value = event.target.value;
            setQuery(value);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => update({ q: value.trim() }), 300);
          }}
        />
      </div>
      <label className="sr-only" htmlFor="leads-stage">
        Filter by stage
      </label>
      <select id="leads-stage" className={selectClasses} value={params.get("stage") ?? ""} onChange={(event) => update({ stage: event.target.value })}>
        <option value="">All stages</option>
        {stages.map((stage) => (
          <option key={stage.key} value={stage.key}>
            {stage.label}
          </option>
        ))}
      </select>
    </div>
  );
}
