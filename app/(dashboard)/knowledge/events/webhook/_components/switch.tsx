"use client";

import { Switch as SwitchPrimitive } from "radix-ui";
import { cn } from "@/components/ui/cn";

/** An accessible on/off switch (role="switch") with a visible label. */
export function Switch({
  label,
  checked,
  disabled,
  onCheckedChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <label
      className={cn(
        "inline-flex items-center gap-2.5 text-sm font-medium",
        disabled ? "text-zinc-400" : "text-zinc-800",
      )}
    >
      <SwitchPrimitive.Root
        checked={checked}
        disabled={disabled}
        onCheckedChange={onCheckedChange}
        aria-label={label}
        className={
          "relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-zinc-300 transition-colors " +
          "data-[state=checked]:bg-emerald-500 disabled:cursor-not-allowed disabled:opacity-60"
        }
      >
        <SwitchPrimitive.Thumb
          className={
            "pointer-events-none block size-5 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow " +
            "ring-0 transition-transform data-[state=checked]:translate-x-[1.375rem]"
          }
        />
      </SwitchPrimitive.Root>
      <span aria-hidden>{label}</span>
    </label>
  );
}
