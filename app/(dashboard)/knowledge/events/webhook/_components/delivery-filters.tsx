"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { cn } from "@/components/ui/cn";

const selectClasses =
  "h-8 rounded-md border-0 bg-white py-1 pr-8 pl-2.5 text-sm text-zinc-800 shadow-sm ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600";

/** Filters live in the URL, so a filtered view can be shared; changing one starts again at the newest. */
export function DeliveryFilters() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const update = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    for (const key of ["cursor", "dir", "delivery"]) next.delete(key);
    if (value) next.set(name, value);
    else next.delete(name);
    router.push(`${pathname}?${next}`, { scroll: false });
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor="delivery-action">
        Filter by action
      </label>
      <select id="delivery-action" className={selectClasses} value={params.get("action") ?? ""} onChange={(event) => update("action", event.target.value)}>
        <option value="">All actions</option>
        <option value="upsert">upsert</option>
        <option value="cancel">cancel</option>
        <option value="delete">delete</option>
      </select>
      <label className="sr-only" htmlFor="delivery-status">
        Filter by status
      </label>
      <select id="delivery-status" className={cn(selectClasses)} value={params.get("status") ?? ""} onChange={(event) => update("status", event.target.value)}>
        <option value="">All statuses</option>
        <option value="2xx">2xx success</option>
        <option value="4xx">4xx rejected</option>
        <option value="5xx">5xx failed</option>
      </select>
    </div>
  );
}
