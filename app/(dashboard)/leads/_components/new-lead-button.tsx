"use client";

import { Plus } from "lucide-react";
import { DialogButton } from "@/app/(dashboard)/_components/form-dialog";
import type { StageOption } from "../view-model";
import { EMPTY_LEAD, LeadFormDialog, type LeadFormLimits } from "./lead-form-dialog";

export function NewLeadButton({ stages, limits }: { stages: StageOption[]; limits: LeadFormLimits }) {
  return (
    <DialogButton label="New lead" icon={<Plus className="size-4" aria-hidden />}>
      {(dialog) => <LeadFormDialog {...dialog} leadId={null} initial={EMPTY_LEAD} stages={stages} limits={limits} />}
    </DialogButton>
  );
}
