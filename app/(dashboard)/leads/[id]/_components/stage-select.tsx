"use client";

import { useOptimistic, useTransition } from "react";
import { toast } from "sonner";
import { SelectField } from "@/components/ui/field";
import { changeLeadStageAction } from "../../actions";
import type { StageOption } from "../../view-model";

/** Changes the stage as soon as another one is picked; the page's data refreshes from the action. */
export function StageSelect({ leadId, stage, stages }: { leadId: string; stage: string; stages: StageOption[] }) {
  const [shown, setShown] = useOptimistic(stage);
  const [pending, startTransition] = useTransition();

  const change = (next: string) => {
    const label = stages.find((candidate) => candidate.key === next)?.label ?? next;
    startTransition(async () => {
      setShown(next);
      const result = await changeLeadStageAction({ leadId, stage: next });
      if (result.ok) toast.success(`Moved to ${label}.`);
      else toast.error(result.error);
    });
  };

  return (
    <SelectField
      id="lead-stage"
      label="Stage"
      value={shown}
      onChange={(event) => change(event.target.value)}
      aria-busy={pending || undefined}
      options={stages.map((option) => [option.key, option.label] as const)}
    />
  );
}
