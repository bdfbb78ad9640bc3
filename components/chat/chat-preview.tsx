import { SendHorizontal, UserRound } from "lucide-react";
import { cn } from "@/components/ui/cn";

/*
 * A still picture of the chat panel as visitors see it when it opens: header with the assistant's name,
 * the greeting, and the (inactive) message box. Settings → Chat widget renders it beside its form so
 * people see their wording before they save. It has no controls, only look-alikes, and is `inert`: no
 * focus, no clicks, and out of the accessibility tree, as it only repeats the form's own fields.
 */

export const PREVIEW_NAME_FALLBACK = "Assistant";

export function ChatPreview({
  assistantName,
  greeting,
  className,
}: {
  assistantName: string;
  greeting: string;
  className?: string;
}) {
  const name = assistantName.replace(/\s+/g, " ").trim() || PREVIEW_NAME_FALLBACK;
  const initial = [...name][0]?.toUpperCase() ?? "A";
  return (
    <div
      inert
      className={cn(
        "flex h-[22rem] w-full flex-col sm:h-[28rem] overflow-hidden rounded-2xl bg-white shadow-lg ring-1 ring-zinc-200 select-none",
        className,
      )}
    >
      <div className="flex items-center gap-3 bg-indigo-600 px-4 py-3 text-white">
        <span
          aria-hidden
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white/20 text-sm font-semibold"
        >
          {initial}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold">{name}</p>
          <p className="text-xs text-indigo-100">Answers about upcoming events</p>
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 overflow-hidden bg-zinc-50 px-4 py-4">
        <div className="flex max-w-[85%] flex-col gap-1">
          <span className="text-xs font-medium text-zinc-500">{name}</span>
          <p className="rounded-2xl rounded-tl-sm bg-white px-3 py-2 text-sm whitespace-pre-wrap text-zinc-800 shadow-sm ring-1 ring-zinc-200 [overflow-wrap:anywhere]">
            {greeting.trim() || "…"}
          </p>
        </div>
      </div>
      <div className="space-y-2 border-t border-zinc-200 bg-white px-3 py-3">
        <span className="inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200">
          <UserRound className="size-3.5" aria-hidden />
          Talk to a person
        </span>
        <div className="flex items-center gap-2">
          <span className="flex h-9 flex-1 items-center rounded-full bg-zinc-100 px-3 text-sm text-zinc-400">
            Write a message…
          </span>
          <span aria-hidden className="flex size-9 items-center justify-center rounded-full bg-indigo-600 text-white">
            <SendHorizontal className="size-4" />
          </span>
        </div>
      </div>
    </div>
  );
}
