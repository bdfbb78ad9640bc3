"use client";

import { ListToolbar, type FilterSpec } from "@/components/ui/list-toolbar";

const FILTERS: FilterSpec[] = [
  {
    id: "events-status",
    label: "Status",
    name: "status",
    options: [
      ["", "Any status"],
      ["upcoming", "Upcoming"],
      ["cancelled", "Cancelled"],
    ],
  },
  {
    id: "events-when",
    label: "When",
    name: "when",
    options: [
      ["", "Past and future"],
      // A series counts as coming up while it repeats, whenever it began.
      ["upcoming", "Coming up"],
      ["past", "Already started"],
    ],
  },
  {
    id: "events-sort",
    label: "Sort",
    name: "sort",
    options: [
      ["", "Sort: start time"],
      ["-starts_at", "Sort: latest start first"],
      ["title", "Sort: title A–Z"],
      ["-title", "Sort: title Z–A"],
    ],
  },
];

/** Search, filters and sort live in the URL (shareable); any change starts again at the first page. */
export function EventsToolbar() {
  return (
    <ListToolbar
      search={{ id: "events-search", label: "Search events", placeholder: "Search title, location or description" }}
      filters={FILTERS}
      rowFrom="lg"
    />
  );
}
