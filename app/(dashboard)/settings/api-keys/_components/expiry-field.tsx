"use client";

import { useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { inputClasses } from "@/components/ui/field";
import { ChipButton } from "@/components/ui/chip-button";

/*
 * The optional expiry: a date, with presets. The key stops working at the end of the chosen day in the
 * user's own time zone; that instant is what the form submits (as `expiresAt`).
 */

const PRESETS = [
  { label: "No expiry", days: null },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
] as const;

const pad = (value: number) => String(value).padStart(2, "0");
const isoDate = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

function presetDate(days: number): string {
  const date = new Date();
  // "1 year" is the same calendar day next year, not 365 days (leap years).
  if (days === 365) date.setFullYear(date.getFullYear() + 1);
  else date.setDate(date.getDate() + days);
  return isoDate(date);
}

function endOfLocalDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const [year, month, day] = match.slice(1).map(Number);
  return new Date(year, month - 1, day, 23, 59, 59, 999).toISOString();
}

export function ExpiryField({ error, onChange }: { error?: string; onChange?: () => void }) {
  const id = useId();
  const [date, setDateValue] = useState("");
  const setDate = (value: string) => {
    setDateValue(value);
    onChange?.();
  };
  const [today] = useState(() => isoDate(new Date()));
  const describedBy = error ? `${id}-error` : `${id}-hint`;

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        Expiry date <span className="font-normal text-zinc-500">(optional)</span>
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          id={id}
          type="date"
          min={today}
          value={date}
          onChange={(event) => setDate(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(inputClasses, "sm:w-44")}
        />
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Expiry presets">
          {PRESETS.map((preset) => {
            const value = preset.days === null ? "" : presetDate(preset.days);
            const selected = date === value;
            return (
              <ChipButton key={preset.label} selected={selected} onClick={() => setDate(value)}>
                {preset.label}
              </ChipButton>
            );
          })}
        </div>
      </div>
      <input type="hidden" name="expiresAt" value={date ? endOfLocalDay(date) : ""} />
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
          {date
            ? "The key stops working at the end of this day, in your time zone."
            : "Without a date the key works until it is revoked."}
        </p>
      )}
    </div>
  );
}
