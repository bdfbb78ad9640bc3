"use client";

import { useOptimistic, useTransition } from "react";
import { toast } from "sonner";
import { inputClasses } from "@/components/ui/field";
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
    <div className="space-y-1.5">
      <label htmlFor="lead-stage" className="block text-sm font-medium text-zinc-800">
        Stage
      </label>
      <select
        id="lead-stage"
        value={shown}
        onChange={(event) => change(event.target.value)}
        aria-busy={pending || undefined}
        className={inputClasses}
      >
        {stages.map((option) => (
          <option key={option.key} value={option.key}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
