import { ArrowUp, UserRound } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { BrandColors } from "@/lib/conversations/brand";
import { ASSISTANT_STATUS, ChatHeader } from "./chat-header";
import { SystemNote } from "./system-note";

/*
 * A still picture of the chat panel as visitors see it when it opens: the header (the very component
 * the hosted chat uses), the greeting, and the (inactive) message box in the brand colour; below it, the
 * note a visitor gets after "Talk to a person". Settings → Chat widget renders it beside its form so
 * people see their wording before they save. It has no controls, only look-alikes, and is `inert`: no
 * focus, no clicks, and out of the accessibility tree, as it only repeats the form's own fields.
 */

export const PREVIEW_NAME_FALLBACK = "Assistant";

export function ChatPreview({
  assistantName,
  greeting,
  businessName,
  logoUrl,
  colors,
  handoffNote,
  className,
}: {
  assistantName: string;
  greeting: string;
  businessName: string;
  logoUrl: string;
  colors: BrandColors;
  handoffNote: string;
  className?: string;
}) {
  const name = assistantName.replace(/\s+/g, " ").trim() || PREVIEW_NAME_FALLBACK;
  return (
    <div inert className={cn("space-y-3 select-none", className)}>
      <div
        className={
          "flex h-[22rem] w-full flex-col overflow-hidden rounded-2xl bg-white " +
          "shadow-lg ring-1 ring-zinc-200 sm:h-[26rem]"
        }
      >
        <ChatHeader
          businessName={businessName.replace(/\s+/g, " ").trim()}
          assistantName={name}
          logoUrl={logoUrl}
          colors={colors}
          status={ASSISTANT_STATUS}
          heading={false}
          className="pr-4"
        />
        <div className="flex flex-1 flex-col gap-3 overflow-hidden bg-zinc-50 px-4 py-4">
          <div className="flex max-w-[85%] flex-col items-start">
            <span className="mb-1 px-1 text-xs font-medium text-zinc-500">{name}</span>
            <p
              className={
                "rounded-2xl rounded-bl-md bg-white px-3.5 py-2 text-[0.9375rem] leading-relaxed " +
                "whitespace-pre-wrap text-zinc-900 ring-1 ring-zinc-200 wrap-anywhere"
              }
            >
              {greeting.trim() || "…"}
            </p>
          </div>
          <p
            className="max-w-[85%] self-end rounded-2xl rounded-br-md px-3.5 py-2 text-[0.9375rem] leading-relaxed"
            style={{ backgroundColor: colors.background, color: colors.text }}
          >
            Any concerts this weekend?
          </p>
        </div>
        <div className="space-y-2 border-t border-zinc-200 bg-white px-3 py-3">
          <div className="flex items-center gap-2">
            <span className="flex h-10 flex-1 items-center rounded-2xl bg-zinc-100 px-4 text-sm text-zinc-500">
              Write a message…
            </span>
            <span
              aria-hidden
              className="flex size-10 items-center justify-center rounded-full"
              style={{ backgroundColor: colors.background, color: colors.text }}
            >
              <ArrowUp className="size-5" />
            </span>
          </div>
          <span className="inline-flex items-center gap-1.5 px-2.5 py-1 text-xs font-medium text-zinc-700">
            <UserRound className="size-4" aria-hidden />
            Talk to a person
          </span>
        </div>
      </div>
      <div className="space-y-2 rounded-2xl bg-zinc-50 px-4 py-3 ring-1 ring-zinc-200">
        <p className="text-xs font-medium text-zinc-500">After “Talk to a person”, the visitor reads:</p>
        <div className="flex justify-center">
          <SystemNote text={handoffNote} />
        </div>
      </div>
    </div>
  );
}
