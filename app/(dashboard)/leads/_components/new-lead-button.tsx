"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { StageOption } from "../view-model";
import { EMPTY_LEAD, LeadFormDialog, type LeadFormLimits } from "./lead-form-dialog";

export function NewLeadButton({ stages, limits }: { stages: StageOption[]; limits: LeadFormLimits }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Plus className="size-4" aria-hidden />
        New lead
      </Button>
      <LeadFormDialog
        open={open}
        onOpenChange={setOpen}
        leadId={null}
        initial={EMPTY_LEAD}
        stages={stages}
        limits={limits}
      />
    </>
  );
}
