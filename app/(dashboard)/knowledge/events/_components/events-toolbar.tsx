"use client";

import { ListFilter, ListSearch, useListParams } from "@/components/ui/list-toolbar";

/** Search, filters and sort live in the URL (shareable); any change starts again at the first page. */
export function EventsToolbar() {
  const { params, update } = useListParams();
  const filter = (id: string, label: string, name: string, options: Array<[string, string]>) => (
    <ListFilter
      id={id}
      label={label}
      value={params.get(name) ?? ""}
      options={options.map(([value, text]) => ({ value, label: text }))}
      onChange={(value) => update({ [name]: value })}
    />
  );
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <ListSearch
        id="events-search"
        label="Search events"
        placeholder="Search title, location or description"
        initial={params.get("q") ?? ""}
        onSearch={(q) => update({ q })}
      />
      <div className="flex flex-wrap gap-2">
        {filter("events-status", "Status", "status", [
          ["", "Any status"],
          ["upcoming", "Upcoming"],
          ["cancelled", "Cancelled"],
        ])}
        {filter("events-when", "When", "when", [
          ["", "Past and future"],
          ["upcoming", "Not started yet"],
          ["past", "Already started"],
        ])}
        {filter("events-sort", "Sort", "sort", [
          ["", "Sort: start time"],
          ["-starts_at", "Sort: latest start first"],
          ["title", "Sort: title A–Z"],
          ["-title", "Sort: title Z–A"],
        ])}
      </div>
    </div>
  );
}
