"use client";

import { Pencil, UserPlus } from "lucide-react";
import { useActionState, useEffect, useId } from "react";
import { toast } from "sonner";
import { Dialog, DialogBody, DialogContent, FormDialogFooter, dialogFormClasses } from "@/components/ui/dialog";
import { Field, inputClasses } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
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

type LeadFormState = { result: ActionResult<{ id: string; message: string }> | null; values?: Partial<LeadFormValues> };

function ErrorText({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="text-xs font-medium text-red-600">
      {error}
    </p>
  ) : null;
}

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
  const [state, submit, pending] = useActionState<LeadFormState, FormData>(
    async (_previous, form) => ({
      result: await (leadId ? updateLeadAction(form) : createLeadAction(form)),
      values: Object.fromEntries(form) as Partial<LeadFormValues>,
    }),
    { result: null },
  );
  const notesId = useId();
  const stageId = useId();
  const values = { ...initial, ...state.values };
  const errors = firstFieldErrors(state.result);

  useEffect(() => {
    if (!state.result?.ok) return;
    toast.success(state.result.data.message);
    onDone();
  }, [state, onDone]);

  return (
    <form action={submit} className={dialogFormClasses} noValidate>
      {leadId ? <input type="hidden" name="leadId" value={leadId} /> : null}
      <DialogBody>
        <Field
          label="Name"
          name="name"
          defaultValue={values.name}
          error={errors.name}
          maxLength={limits.name}
          autoComplete="off"
          autoFocus
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Email"
            name="email"
            type="email"
            defaultValue={values.email}
            error={errors.email}
            maxLength={limits.email}
            autoComplete="off"
          />
          <Field
            label="Phone"
            name="phone"
            type="tel"
            defaultValue={values.phone}
            error={errors.phone}
            maxLength={limits.phone}
            autoComplete="off"
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Company"
            name="company"
            defaultValue={values.company}
            error={errors.company}
            maxLength={limits.company}
            autoComplete="off"
          />
          {leadId ? null : (
            <div className="space-y-1.5">
              <label htmlFor={stageId} className="block text-sm font-medium text-zinc-800">
                Stage
              </label>
              <select
                id={stageId}
                name="stage"
                defaultValue={values.stage || stages[0]?.key}
                className={inputClasses}
                aria-invalid={errors.stage ? true : undefined}
              >
                {stages.map((stage) => (
                  <option key={stage.key} value={stage.key}>
                    {stage.label}
                  </option>
                ))}
              </select>
              <ErrorText id={`${stageId}-error`} error={errors.stage} />
            </div>
          )}
        </div>
        <div className="space-y-1.5">
          <label htmlFor={notesId} className="block text-sm font-medium text-zinc-800">
            Notes
          </label>
          <textarea
            id={notesId}
            name="notes"
            rows={4}
            maxLength={limits.notes}
            defaultValue={values.notes}
            className={inputClasses}
            aria-invalid={errors.notes ? true : undefined}
            aria-describedby={errors.notes ? `${notesId}-error` : undefined}
          />
          <ErrorText id={`${notesId}-error`} error={errors.notes} />
        </div>
        <FormAlert>{formError(state.result)}</FormAlert>
      </DialogBody>
      <FormDialogFooter
        submitLabel={leadId ? "Save lead" : "Create lead"}
        pendingLabel="Saving…"
        pending={pending}
        onCancel={onDone}
      />
    </form>
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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={leadId ? "Edit lead" : "New lead"}
        description="A lead needs at least a name, an email or a phone number. Emails are unique within the account."
        icon={leadId ? <Pencil className="size-4" aria-hidden /> : <UserPlus className="size-4" aria-hidden />}
        size="lg"
      >
        {/* Remounting per opening resets the form's action state. */}
        {open ? (
          <LeadForm
            key={leadId ?? "new"}
            leadId={leadId}
            initial={initial}
            stages={stages}
            limits={limits}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
