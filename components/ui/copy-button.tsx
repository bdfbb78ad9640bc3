"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button, type ButtonProps } from "./button";

export type CopyButtonProps = Omit<ButtonProps, "onClick" | "children" | "value"> & {
  /** The text to put on the clipboard. */
  value: string;
  label?: string;
  copiedLabel?: string;
  /** The toast shown after a successful copy. */
  toastMessage?: string;
  onCopied?: () => void;
};

async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers and some embedded views lack the async clipboard; fall back to a selection copy.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/** Copies `value`; confirms with a toast and a check mark for two seconds. */
export function CopyButton({
  value,
  label = "Copy",
  copiedLabel = "Copied",
  toastMessage = "Copied to clipboard",
  onCopied,
  variant = "secondary",
  ...props
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    if (await writeClipboard(value)) {
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
      toast.success(toastMessage);
      onCopied?.();
    } else {
      toast.error("Copying failed. Select the text and copy it yourself.");
    }
  };

  return (
    <Button variant={variant} onClick={copy} {...props}>
      {copied ? <Check className="size-4 text-emerald-600" aria-hidden /> : <Copy className="size-4" aria-hidden />}
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </Button>
  );
}
