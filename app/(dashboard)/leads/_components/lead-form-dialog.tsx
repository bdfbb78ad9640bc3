"use client";

import { Pencil, UserPlus } from "lucide-react";
import { FormDialog, useDialogFormAction } from "@/app/(dashboard)/_components/form-dialog";
import { DialogForm } from "@/components/ui/dialog";
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

function LeadForm({
  leadId,
  initial,
  stages,
  limits,
  onDone,
}: {
  leadId: string | null;
  initial: LeadFormValues;
  stages: StageOption[];
  limits: LeadFormLimits;
  onDone: () => void;
}) {
  const { submit, pending, values, field, formError } = useDialogFormAction(
    (form) => (leadId ? updateLeadAction(form) : createLeadAction(form)),
    initial,
    onDone,
  );

  return (
    <DialogForm
      action={submit}
      hidden={leadId ? { leadId } : {}}
      error={formError}
      submitLabel={leadId ? "Save lead" : "Create lead"}
      pendingLabel="Saving…"
      pending={pending}
      onCancel={onDone}
    >
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
    </DialogForm>
  );
}

export function LeadFormDialog({
  open,
  onOpenChange,
  leadId,
  initial,
  stages,
  limits,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  leadId: string | null;
  initial: LeadFormValues;
  stages: StageOption[];
  limits: LeadFormLimits;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      formKey={leadId ?? "new"}
      title={leadId ? "Edit lead" : "New lead"}
      description="A lead needs at least a name, an email or a phone number. Emails are unique within the account."
      icon={leadId ? <Pencil className="size-4" aria-hidden /> : <UserPlus className="size-4" aria-hidden />}
    >
      {(close) => <LeadForm leadId={leadId} initial={initial} stages={stages} limits={limits} onDone={close} />}
    </FormDialog>
  );
}
