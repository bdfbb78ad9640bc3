"use client";

import { UserPlus } from "lucide-react";
import type { DialogState } from "@/app/(dashboard)/_components/form-dialog";
import { RecordFormDialog } from "@/app/(dashboard)/_components/record-form-dialog";
import { Field, SelectField, TextAreaField } from "@/components/ui/field";
import { createLeadAction, updateLeadAction } from "../actions";
import type { StageOption } from "../view-model";

export type LeadFormValues = {
  name: string;
  email: string;
  phone: string;
  company: string;
  notes: string;
  stage: string;
};

/** The fields' length limits, handed down by the server page (the schemas module is server-side). */
export type LeadFormLimits = { name: number; email: number; phone: number; company: number; notes: number };

export const EMPTY_LEAD: LeadFormValues = { name: "", email: "", phone: "", company: "", notes: "", stage: "" };

export function LeadFormDialog({
  leadId,
  initial,
  stages,
  limits,
  ...dialog
}: DialogState & { leadId: string | null; initial: LeadFormValues; stages: StageOption[]; limits: LeadFormLimits }) {
  return (
    <RecordFormDialog
      {...dialog}
      noun="lead"
      idField="leadId"
      recordId={leadId}
      description="A lead needs at least a name, an email or a phone number. Emails are unique within the account."
      createIcon={<UserPlus className="size-4" aria-hidden />}
      action={(form) => (leadId ? updateLeadAction(form) : createLeadAction(form))}
      initial={initial}
    >
      {({ field, values }) => (
        <>
          <Field label="Name" {...field("name")} maxLength={limits.name} autoComplete="off" autoFocus />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Email" {...field("email")} type="email" maxLength={limits.email} autoComplete="off" />
            <Field label="Phone" {...field("phone")} type="tel" maxLength={limits.phone} autoComplete="off" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Company" {...field("company")} maxLength={limits.company} autoComplete="off" />
            {leadId ? null : (
              <SelectField
                label="Stage"
                {...field("stage")}
                defaultValue={values.stage || stages[0]?.key}
                options={stages.map((stage) => [stage.key, stage.label] as const)}
              />
            )}
          </div>
          <TextAreaField label="Notes" {...field("notes")} rows={4} maxLength={limits.notes} />
        </>
      )}
    </RecordFormDialog>
  );
}
