"use client";

import { RefreshCw, type LucideIcon } from "lucide-react";
import { AlertDialog as AlertPrimitive } from "radix-ui";
import { useState } from "react";
import { Button, buttonClasses } from "./button";
import { cn } from "./cn";

/*
 * A confirmation for consequential actions (revoke, rotate, discard). Radix AlertDialog: focus starts on
 * Cancel, and clicking outside does not dismiss it.
 *
 * Uncontrolled with a `trigger`, or controlled with `open`/`onOpenChange`. When `onConfirm` returns a
 * promise the dialog stays open with the confirm button busy until it settles, then closes.
 */
export type ConfirmDialogProps = {
  trigger?: React.ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  /** Extra content between the description and the buttons. */
  children?: React.ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while `onConfirm`'s promise is pending. */
  pendingLabel?: string;
  cancelLabel?: string;
  tone?: "danger" | "primary";
  icon?: React.ReactNode;
  onConfirm: () => void | Promise<unknown>;
};

export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  pendingLabel,
  cancelLabel = "Cancel",
  tone = "danger",
  icon,
  onConfirm,
}: ConfirmDialogProps) {
  const [uncontrolledOpen, setUncontrolledOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const isOpen = open ?? uncontrolledOpen;
  const setOpen = (next: boolean) => {
    if (pending && !next) return;
    if (open === undefined) setUncontrolledOpen(next);
    onOpenChange?.(next);
  };

  const confirm = async (event: React.MouseEvent) => {
    const result = onConfirm();
    if (!(result instanceof Promise)) return;
    // Keep the dialog open (Radix would close it on click) until the work is done.
    event.preventDefault();
    setPending(true);
    try {
      await result;
    } finally {
      setPending(false);
      if (open === undefined) setUncontrolledOpen(false);
      onOpenChange?.(false);
    }
  };

  return (
    <AlertPrimitive.Root open={isOpen} onOpenChange={setOpen}>
      {trigger ? <AlertPrimitive.Trigger asChild>{trigger}</AlertPrimitive.Trigger> : null}
      <AlertPrimitive.Portal>
        <AlertPrimitive.Overlay className="fixed inset-0 z-[60] bg-zinc-950/40" />
        <AlertPrimitive.Content
          className={
            "fixed top-1/2 left-1/2 z-[70] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 " +
            "rounded-xl bg-white p-6 shadow-2xl ring-1 ring-zinc-900/10 focus:outline-none"
          }
        >
          <div className="flex gap-4">
            {icon ? (
              <div
                className={cn(
                  "flex size-10 shrink-0 items-center justify-center rounded-full",
                  tone === "danger" ? "bg-red-50 text-red-600" : "bg-indigo-50 text-indigo-600",
                )}
              >
                {icon}
              </div>
            ) : null}
            <div className="min-w-0 flex-1">
              <AlertPrimitive.Title className="text-base font-semibold text-zinc-900">{title}</AlertPrimitive.Title>
              <AlertPrimitive.Description className="mt-2 text-sm leading-6 text-zinc-600">
                {description}
              </AlertPrimitive.Description>
              {children}
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertPrimitive.Cancel className={buttonClasses("secondary")} disabled={pending}>
              {cancelLabel}
            </AlertPrimitive.Cancel>
            <AlertPrimitive.Action
              className={buttonClasses(tone === "danger" ? "danger" : "primary")}
              disabled={pending}
              onClick={confirm}
            >
              {pending ? (pendingLabel ?? confirmLabel) : confirmLabel}
            </AlertPrimitive.Action>
          </div>
        </AlertPrimitive.Content>
      </AlertPrimitive.Portal>
    </AlertPrimitive.Root>
  );
}

/** "Rotate …" and its confirmation: every secret or secret URL the dashboard shows is rotated this way. */
export function RotateConfirm(props: {
  label: string;
  title: string;
  description: string;
  tone?: ConfirmDialogProps["tone"];
  onConfirm: ConfirmDialogProps["onConfirm"];
}) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary">
          <RefreshCw className="size-4" aria-hidden />
          {props.label}
        </Button>
      }
      tone={props.tone}
      title={props.title}
      description={props.description}
      confirmLabel="Rotate"
      pendingLabel="Rotating…"
      icon={<RefreshCw className="size-5" aria-hidden />}
      onConfirm={props.onConfirm}
    />
  );
}

/** A table row's icon button, named by `label` (only the icon shows), and the confirmation it opens. */
export function IconConfirm({
  Icon,
  label,
  hint,
  danger = false,
  ...props
}: Omit<ConfirmDialogProps, "trigger" | "icon"> & {
  Icon: LucideIcon;
  label: string;
  hint?: string;
  danger?: boolean;
}) {
  return (
    <ConfirmDialog
      trigger={
        <Button
          variant="ghost"
          size="sm"
          aria-label={label}
          title={hint}
          className={danger ? "text-zinc-500 hover:bg-red-50 hover:text-red-600" : undefined}
        >
          <Icon className="size-4" aria-hidden />
        </Button>
      }
      icon={<Icon className="size-5" aria-hidden />}
      {...props}
    />
  );
}
