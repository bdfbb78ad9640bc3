"use client";

import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { Button, type ButtonProps } from "./button";
import { cn } from "./cn";
import { FormAlert } from "./form-alert";

/*
 * A modal dialog on Radix (focus trap, Escape, aria wiring). Compose:
 *   <Dialog open onOpenChange><DialogTrigger asChild>…</DialogTrigger>
 *     <DialogContent title="…" description="…">…<DialogFooter>…</DialogFooter></DialogContent></Dialog>
 */

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/** The button that opens its Dialog (Radix wires aria-expanded to it and gives focus back to it on close). */
export function DialogTriggerButton({ icon, children, ...props }: ButtonProps & { icon: React.ReactNode }) {
  return (
    <DialogPrimitive.Trigger asChild>
      <Button {...props}>
        {icon}
        {children}
      </Button>
    </DialogPrimitive.Trigger>
  );
}

const sizes = { sm: "max-w-md", md: "max-w-lg", lg: "max-w-2xl" } as const;

export type DialogContentProps = Omit<React.ComponentProps<typeof DialogPrimitive.Content>, "title"> & {
  title: React.ReactNode;
  description?: React.ReactNode;
  size?: keyof typeof sizes;
  /** An icon shown beside the title. */
  icon?: React.ReactNode;
  /** The top-right close button (named "Close"); it goes through onOpenChange like Escape does. */
  showClose?: boolean;
};

export function DialogContent({
  title,
  description,
  size = "md",
  icon,
  showClose = true,
  className,
  children,
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-zinc-950/40 backdrop-blur-[1px]" />
      <DialogPrimitive.Content
        // Without a description Radix wants aria-describedby removed explicitly.
        {...(description ? {} : { "aria-describedby": undefined })}
        className={cn(
          "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] " +
            "-translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-xl bg-white " +
            "shadow-2xl ring-1 ring-zinc-900/10 focus:outline-none",
          sizes[size],
          className,
        )}
        {...props}
      >
        <div className="flex items-start gap-3 border-b border-zinc-100 px-6 pt-5 pb-4">
          {icon ? (
            <div
              className={
                "mt-0.5 flex size-9 shrink-0 items-center justify-center " + "rounded-full bg-indigo-50 text-indigo-600"
              }
            >
              {icon}
            </div>
          ) : null}
          <div className="min-w-0 flex-1">
            <DialogPrimitive.Title className="text-base font-semibold text-zinc-900">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="mt-1 text-sm text-zinc-600">
                {description}
              </DialogPrimitive.Description>
            ) : null}
          </div>
          {showClose ? (
            <DialogPrimitive.Close
              className="-mt-1 -mr-2 rounded-md p-1.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700"
              aria-label="Close"
            >
              <X className="size-4" aria-hidden />
            </DialogPrimitive.Close>
          ) : null}
        </div>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** Padded body of a dialog; it scrolls while the header and footer stay in view. */
export function DialogBody({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("min-h-0 flex-1 space-y-5 overflow-y-auto px-6 py-5", className)} {...props} />;
}

/** For a <form> wrapping DialogBody and DialogFooter, so the body still scrolls inside the dialog. */
export const dialogFormClasses = "flex min-h-0 flex-1 flex-col";

/** Right-aligned actions at the bottom of a dialog. */
export function DialogFooter({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn(
        "flex flex-col-reverse gap-2 border-t border-zinc-100 bg-zinc-50/70 px-6 py-4 sm:flex-row sm:justify-end",
        className,
      )}
      {...props}
    />
  );
}

/**
 * A form dialog's footer: Cancel (closing the dialog, or onCancel) and the submit button, both disabled
 * while the form is being sent, the submit button saying what is happening.
 */
export function FormDialogFooter(props: {
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onCancel?: () => void;
}) {
  const cancel = (
    <Button variant="secondary" onClick={props.onCancel} disabled={props.pending}>
      Cancel
    </Button>
  );
  return (
    <DialogFooter>
      {props.onCancel ? cancel : <DialogClose asChild>{cancel}</DialogClose>}
      <Button type="submit" disabled={props.pending}>
        {props.pending ? props.pendingLabel : props.submitLabel}
      </Button>
    </DialogFooter>
  );
}

/**
 * A dialog's form: hidden fields, the fields in the scrolling body with the form-level error under them,
 * then Cancel and the submit button.
 */
export function DialogForm({
  action,
  hidden = {},
  error,
  children,
  ...footer
}: {
  action: (form: FormData) => void;
  /** Hidden fields, e.g. the id of what is edited. */
  hidden?: Record<string, string>;
  error: string | undefined;
  children: React.ReactNode;
} & React.ComponentProps<typeof FormDialogFooter>) {
  return (
    <form action={action} className={dialogFormClasses} noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <DialogBody>
        {children}
        <FormAlert>{error}</FormAlert>
      </DialogBody>
      <FormDialogFooter {...footer} />
    </form>
  );
}
