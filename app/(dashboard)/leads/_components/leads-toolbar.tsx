"use client";

import { ListToolbar } from "@/components/ui/list-toolbar";
import type { StageOption } from "../view-model";

/** Search and the stage filter live in the URL (shareable); any change starts again at the first page. */
export function LeadsToolbar({ stages }: { stages: StageOption[] }) {
  return (
    <ListToolbar
      search={{
        id: "leads-search",
        label: "Search leads",
        placeholder: "Search name, email or company",
        maxLength: 200,
      }}
      filters={[
        {
          id: "leads-stage",
          label: "Filter by stage",
          name: "stage",
          options: [["", "All stages"], ...stages.map((stage): [string, string] => [stage.key, stage.label])],
        },
      ]}
    />
  );
}
