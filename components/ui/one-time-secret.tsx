"use client";

import { useId } from "react";
import { cn } from "./cn";
import { CopyButton } from "./copy-button";
import { inputClasses } from "./field";

/** A secret shown once (a new API key, a new signing secret): read-only, selected on focus, with Copy. */
export function OneTimeSecret({
  label,
  value,
  toastMessage,
  onCopied,
  children,
}: {
  label: string;
  value: string;
  toastMessage: string;
  onCopied?: () => void;
  /** A hint under the field. */
  children?: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          spellCheck={false}
          autoComplete="off"
          className={cn(inputClasses, "bg-zinc-50 font-mono text-[0.8125rem] tracking-tight")}
        />
        <CopyButton value={value} size="md" toastMessage={toastMessage} onCopied={onCopied} />
      </div>
      {children}
    </div>
  );
}
