"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Dialog, DialogTriggerButton } from "@/components/ui/dialog";

/*
 * A "Create …" dialog whose flow ends by showing something once (a new API key, a new signing secret).
 * What is shown lives only in the flow's state: closing the dialog unmounts it, and only then is the page
 * refreshed, so no re-render can take the dialog away while the secret is on screen.
 */
export function RevealOnceDialog({
  label,
  children,
}: {
  label: string;
  children: (flow: { cancel: () => void; finish: () => void }) => React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const [, startTransition] = useTransition();

  const finish = () => {
    setOpen(false);
    startTransition(() => router.refresh());
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : finish())}>
      <DialogTriggerButton icon={<Plus className="size-4" aria-hidden />}>{label}</DialogTriggerButton>
      {open ? children({ cancel: () => setOpen(false), finish }) : null}
    </Dialog>
  );
}
