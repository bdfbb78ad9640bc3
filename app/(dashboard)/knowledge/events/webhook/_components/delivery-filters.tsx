"use client";

import { ListFilter, useListParams } from "@/components/ui/list-toolbar";

/** Filters live in the URL, so a filtered view can be shared; changing one starts again at the newest. */
export function DeliveryFilters() {
  const { params, update } = useListParams({ reset: ["cursor", "dir", "delivery"], push: true });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <ListFilter
        id="delivery-action"
        label="Filter by action"
        size="sm"
        value={params.get("action") ?? ""}
        options={[
          { value: "", label: "All actions" },
          { value: "upsert", label: "upsert" },
          { value: "cancel", label: "cancel" },
          { value: "delete", label: "delete" },
        ]}
        onChange={(action) => update({ action })}
      />
      <ListFilter
        id="delivery-status"
        label="Filter by status"
        size="sm"
        value={params.get("status") ?? ""}
        options={[
          { value: "", label: "All statuses" },
          { value: "2xx", label: "2xx success" },
          { value: "4xx", label: "4xx rejected" },
          { value: "5xx", label: "5xx failed" },
        ]}
        onChange={(status) => update({ status })}
      />
    </div>
  );
}
