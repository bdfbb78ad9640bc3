"use client";

import { Pencil } from "lucide-react";
import { DialogForm } from "@/components/ui/dialog";
import type { ActionResult } from "@/lib/actions/result";
import { FormDialog, useDialogFormAction, type DialogState } from "./form-dialog";

type Values = Record<string, string>;

/** What a record dialog's fields are laid out with: `field(name)` to spread on a Field, and the values shown. */
export type RecordFields<V extends Values> = Pick<ReturnType<typeof useDialogFormAction<V>>, "field" | "values">;

type RecordFormProps<V extends Values> = {
  /** What the record is called in the title and on the submit button: "lead", "event". */
  noun: string;
  /** The hidden field that carries `recordId` to the action when editing. */
  idField: string;
  /** The record edited, or null to create one. */
  recordId: string | null;
  action: (form: FormData) => Promise<ActionResult<{ message: string }>>;
  initial: V;
  children: (fields: RecordFields<V>) => React.ReactNode;
};

/**
 * The dialog that creates a record or edits one: "New lead" or "Edit lead" (with a pencil), then
 * "Create lead" or "Save lead". FormDialog gives each opening a fresh form; `children` lays out the fields.
 */
export function RecordFormDialog<V extends Values>({
  description,
  createIcon,
  open,
  onOpenChange,
  opener,
  ...form
}: DialogState & RecordFormProps<V> & { description: string; createIcon: React.ReactNode }) {
  const editing = Boolean(form.recordId);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      opener={opener}
      formKey={form.recordId ?? "new"}
      title={`${editing ? "Edit" : "New"} ${form.noun}`}
      description={description}
      icon={editing ? <Pencil className="size-4" aria-hidden /> : createIcon}
    >
      {(close) => <RecordForm {...form} onDone={close} />}
    </FormDialog>
  );
}

function RecordForm<V extends Values>({
  noun,
  idField,
  recordId,
  action,
  initial,
  children,
  onDone,
}: RecordFormProps<V> & { onDone: () => void }) {
  const { submit, pending, values, field, formError } = useDialogFormAction(action, initial, onDone);
  return (
    <DialogForm
      action={submit}
      hidden={recordId ? { [idField]: recordId } : {}}
      error={formError}
      submitLabel={`${recordId ? "Save" : "Create"} ${noun}`}
      pendingLabel="Saving…"
      pending={pending}
      onCancel={onDone}
    >
      {children({ field, values })}
    </DialogForm>
  );
}
