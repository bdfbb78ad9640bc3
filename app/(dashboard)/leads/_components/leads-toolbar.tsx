"use client";

import { ListFilter, ListSearch, useListParams } from "@/components/ui/list-toolbar";
import type { StageOption } from "../view-model";

/** Search and the stage filter live in the URL (shareable); any change starts again at the first page. */
export function LeadsToolbar({ stages }: { stages: StageOption[] }) {
  const { params, update } = useListParams();
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <ListSearch
        id="leads-search"
        label="Search leads"
        placeholder="Search name, email or company"
        initial={params.get("q") ?? ""}
        maxLength={200}
        onSearch={(q) => update({ q })}
      />
      <ListFilter
        id="leads-stage"
        label="Filter by stage"
        value={params.get("stage") ?? ""}
        options={[
          { value: "", label: "All stages" },
          ...stages.map((stage) => ({ value: stage.key, label: stage.label })),
        ]}
        onChange={(stage) => update({ stage })}
      />
    </div>
  );
}
