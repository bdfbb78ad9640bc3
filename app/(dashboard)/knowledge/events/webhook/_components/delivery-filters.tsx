"use client";

import { ListFilters } from "@/components/ui/list-toolbar";

/** Filters live in the URL, so a filtered view can be shared; changing one starts again at the newest. */
export function DeliveryFilters() {
  return (
    <ListFilters
      size="sm"
      reset={["cursor", "dir", "delivery"]}
      push
      filters={[
        {
          id: "delivery-action",
          label: "Filter by action",
          name: "action",
          options: [
            ["", "All actions"],
            ["upsert", "upsert"],
            ["cancel", "cancel"],
            ["delete", "delete"],
          ],
        },
        {
          id: "delivery-status",
          label: "Filter by status",
          name: "status",
          options: [
            ["", "All statuses"],
            ["2xx", "2xx success"],
            ["4xx", "4xx rejected"],
            ["5xx", "5xx failed"],
          ],
        },
      ]}
    />
  );
}
