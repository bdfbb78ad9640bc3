"use client";

import { Fragment, useActionState, useEffect, useRef, useState, type RefObject } from "react";
import { toast } from "sonner";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Dialog, DialogContent, type DialogContentProps } from "@/components/ui/dialog";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";

/**
 * Whether a dialog is open, and how it opens and closes: what DialogButton hands to the dialog it renders.
 * `opener` is the button that opened it, which gets focus back when it closes (Radix does that only for a
 * DialogTrigger, and these dialogs open from state).
 */
export type DialogState = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  opener?: RefObject<HTMLElement | null>;
};

/** A button ("New lead", "Edit") that opens the dialog `children` renders: `{(dialog) => <X {...dialog} />}`. */
export function DialogButton({
  label,
  icon,
  variant,
  children,
}: {
  label: string;
  icon: React.ReactNode;
  variant?: ButtonProps["variant"];
  children: (dialog: DialogState) => React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={opener} variant={variant} onClick={() => setOpen(true)}>
        {icon}
        {label}
      </Button>
      {children({ open, onOpenChange: setOpen, opener })}
    </>
  );
}

/**
 * A create/edit dialog whose form is mounted only while it is open, under `formKey`: each opening
 * starts with a fresh form and a fresh action state. `children` gets the function that closes it.
 */
export function FormDialog({
  open,
  onOpenChange,
  opener,
  formKey,
  title,
  description,
  icon,
  size = "lg",
  children,
}: DialogState & {
  formKey: string;
  title: string;
  description: string;
  icon: React.ReactNode;
  size?: DialogContentProps["size"];
  children: (close: () => void) => React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={title}
        description={description}
        icon={icon}
        size={size}
        onCloseAutoFocus={(event) => {
          if (!opener?.current?.isConnected) return;
          event.preventDefault();
          opener.current.focus();
        }}
      >
        {open ? <Fragment key={formKey}>{children(() => onOpenChange(false))}</Fragment> : null}
      </DialogContent>
    </Dialog>
  );
}

type FormState<V> = { result: ActionResult<{ message: string }> | null; values?: Partial<V> };

/**
 * A dialog form's action: after a refusal the form shows what was sent with the first error per field;
 * on success the action's message becomes a toast and `onDone` closes the dialog.
 */
export function useDialogFormAction<V extends Record<string, string>>(
  action: (form: FormData) => Promise<ActionResult<{ message: string }>>,
  initial: V,
  onDone: () => void,
) {
  const [state, submit, pending] = useActionState<FormState<V>, FormData>(
    async (_previous, form) => ({ result: await action(form), values: Object.fromEntries(form) as Partial<V> }),
    { result: null },
  );

  useEffect(() => {
    if (!state.result?.ok) return;
    toast.success(state.result.data.message);
    onDone();
  }, [state, onDone]);

  const values: V = { ...initial, ...state.values };
  const errors = firstFieldErrors(state.result);
  return {
    result: state.result,
    submit,
    pending,
    values,
    errors,
    formError: formError(state.result),
    /** A field's name, the value to show and its error: `<Field label="…" {...field("name")} />`. */
    field: (name: keyof V & string) => ({ name, defaultValue: values[name], error: errors[name] }),
  };
}
