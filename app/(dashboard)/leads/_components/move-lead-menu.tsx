"use client";

import { ArrowRightLeft, Check } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { cn } from "@/components/ui/cn";
import type { StageOption } from "../view-model";

/**
 * The keyboard (and pointer) way to move a card: a menu button named "Move <lead>" listing the stages.
 * Radix gives it the menu keyboard model: Enter or Space opens, arrows move, Enter picks, Escape closes.
 */
export function MoveLeadMenu({
  leadName,
  current,
  stages,
  onMove,
}: {
  leadName: string;
  current: string;
  stages: StageOption[];
  onMove: (stage: string) => void;
}) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label={`Move ${leadName}`}
        title="Move to another stage"
        className={
          "-mt-1 -mr-1.5 shrink-0 rounded-md p-1.5 text-zinc-400 transition-colors hover:bg-zinc-100 " +
          "hover:text-zinc-700 focus-visible:ring-2 focus-visible:ring-indigo-600 " +
          "focus-visible:outline-none data-[state=open]:bg-zinc-100 data-[state=open]:text-zinc-700"
        }
      >
        <ArrowRightLeft className="size-3.5" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-lg bg-white p-1 shadow-lg ring-1 ring-zinc-900/10"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-zinc-500">Move to</DropdownMenu.Label>
          {stages.map((stage) => {
            const here = stage.key === current;
            return (
              <DropdownMenu.Item
                key={stage.key}
                disabled={here}
                onSelect={() => onMove(stage.key)}
                className={cn(
                  "flex cursor-default items-center justify-between gap-3 rounded-md " +
                    "px-2 py-1.5 text-sm outline-none select-none",
                  here
                    ? "text-zinc-400"
                    : "text-zinc-800 data-[highlighted]:bg-indigo-50 data-[highlighted]:text-indigo-700",
                )}
              >
                {stage.label}
                {here ? <Check className="size-3.5" aria-label="current stage" /> : null}
              </DropdownMenu.Item>
            );
          })}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
