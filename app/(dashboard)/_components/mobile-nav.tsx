"use client";

import { Menu, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useState } from "react";
import { NavLinks, type NavCounts } from "./nav-links";

export function MobileNav({ counts }: { counts?: NavCounts }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="rounded-md p-2 text-zinc-600 hover:bg-zinc-100 lg:hidden" aria-label="Open navigation">
        <Menu className="size-5" aria-hidden />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-zinc-900/30" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-72 bg-white p-5 shadow-xl">
          <div className="mb-6 flex items-center justify-between">
            <Dialog.Title className="text-sm font-semibold">Navigation</Dialog.Title>
            <Dialog.Close className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100" aria-label="Close navigation">
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Sections of the dashboard</Dialog.Description>
          <NavLinks onNavigate={() => setOpen(false)} counts={counts} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
