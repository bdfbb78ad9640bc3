"use client";

import { Bot, Info } from "lucide-react";
import { useEffect, useLayoutEffect, useRef } from "react";
import { cn } from "@/components/ui/cn";
import type { MessageView } from "../../view-model";

/** How close to the bottom (px) still counts as "reading the latest": new messages then scroll into view. */
const STICKY_BOTTOM_PX = 80;

/**
 * The messages in a live log region: screen readers announce what is appended. Every text is a React
 * text node (never HTML): visitors write whatever they like.
 */
export function MessageLog({ messages, label }: { messages: MessageView[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    const element = container.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  useLayoutEffect(() => {
    const element = container.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages.length]);

  return (
    <div
      ref={container}
      role="log"
      aria-label={label}
      aria-live="polite"
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICKY_BOTTOM_PX;
      }}
      // Leaves room above for the page's header and below for the reply box, so on a 900 px high screen
      // the box is in view without scrolling the page; the log scrolls instead.
      className="max-h-[max(14rem,calc(100dvh-27rem))] min-h-48 overflow-y-auto px-4 py-5 sm:px-6"
    >
      {messages.length === 0 ? <p className="py-10 text-center text-sm text-zinc-500">No messages yet.</p> : null}
      <ol className="space-y-4">
        {messages.map((message) => (
          <MessageItem key={message.id} message={message} />
        ))}
      </ol>
    </div>
  );
}

function MessageItem({ message }: { message: MessageView }) {
  if (message.author === "system") {
    return (
      <li className="flex justify-center">
        <p
          className={
            "inline-flex max-w-[90%] items-start gap-1.5 rounded-full " + "bg-zinc-100 px-3 py-1 text-xs text-zinc-600"
          }
        >
          <Info className="mt-px size-3.5 shrink-0 text-zinc-400" aria-hidden />
          <span className="break-words whitespace-pre-wrap">{message.text}</span>
          <time dateTime={message.iso} title={message.full} className="shrink-0 text-zinc-500">
            {message.time}
          </time>
        </p>
      </li>
    );
  }
  const ours = message.author === "agent";
  return (
    <li className={cn("flex flex-col", ours ? "items-end" : "items-start")}>
      <p className="mb-1 flex items-center gap-1.5 px-1 text-xs text-zinc-500">
        {message.author === "assistant" ? <Bot className="size-3.5 text-indigo-500" aria-hidden /> : null}
        <span className="font-medium text-zinc-700">{message.name}</span>
        <span className="sr-only">{AUTHOR_ROLE[message.author]}</span>
        <time dateTime={message.iso} title={message.full}>
          {message.time}
        </time>
      </p>
      <p
        className={cn(
          "max-w-[85%] rounded-2xl px-3.5 py-2 text-sm leading-6 break-words whitespace-pre-wrap",
          ours && "rounded-br-md bg-indigo-600 text-white",
          message.author === "visitor" && "rounded-bl-md bg-zinc-100 text-zinc-900",
          message.author === "assistant" && "rounded-bl-md bg-indigo-50 text-zinc-900 ring-1 ring-indigo-100",
        )}
      >
        {message.text}
      </p>
    </li>
  );
}

/** Who wrote it, for screen readers, where the visible name alone does not say (an agent's name). */
const AUTHOR_ROLE = { visitor: "(visitor)", assistant: "(assistant)", agent: "(team)", system: "" } as const;
