"use client";

import { useEffect, useRef } from "react";
import { SystemNote } from "@/components/chat/system-note";
import { cn } from "@/components/ui/cn";
import type { ChatMessage } from "./chat-client";
import { LinkedText } from "./linked-text";
import type { Pending } from "./use-chat";

/*
 * The transcript: a live region screen readers announce politely as messages arrive. Text is rendered
 * as React text nodes only (never as HTML), so markup a visitor or an agent typed shows as typed; links
 * in the assistant's and the team's answers are anchors (linked-text.tsx).
 * The visitor's messages sit on the right; the assistant, the team and system notes on the left.
 */

type Props = {
  assistantName: string;
  messages: ChatMessage[];
  pending: Pending[];
  onRetry: (localId: string) => void;
};

function authorLabel(message: ChatMessage, assistantName: string): string {
  if (message.author === "assistant") return message.author_name || assistantName;
  if (message.author === "agent") return message.author_name || "Team";
  return message.author === "visitor" ? "You" : "Note";
}

const bubble =
  "max-w-[85%] min-w-0 whitespace-pre-wrap wrap-anywhere rounded-2xl px-3.5 py-2 text-[0.9375rem] leading-relaxed";

function Message({
  message,
  assistantName,
  showName,
}: {
  message: ChatMessage;
  assistantName: string;
  showName: boolean;
}) {
  const name = authorLabel(message, assistantName);
  if (message.author === "system") {
    return (
      <li className="flex justify-center py-1">
        <SystemNote text={message.text} />
      </li>
    );
  }
  if (message.author === "visitor") {
    return (
      <li className="flex justify-end">
        <p className={cn(bubble, "rounded-br-md bg-(--brand) text-(--brand-text)")}>
          <span className="sr-only">You: </span>
          {message.text}
        </p>
      </li>
    );
  }
  const agent = message.author === "agent";
  return (
    <li className="flex flex-col items-start">
      {showName ? (
        <p className={cn("mb-1 px-1 text-xs font-medium", agent ? "text-emerald-700" : "text-zinc-500")} aria-hidden>
          {name}
        </p>
      ) : null}
      <p
        className={cn(
          bubble,
          "rounded-bl-md text-zinc-900 ring-1",
          agent ? "bg-emerald-50 ring-emerald-200" : "bg-white ring-zinc-200",
        )}
      >
        <span className="sr-only">{name}: </span>
        <LinkedText text={message.text} />
      </p>
    </li>
  );
}

function PendingMessage({ item, onRetry }: { item: Pending; onRetry: (localId: string) => void }) {
  const failed = item.state === "failed";
  return (
    <li className="flex flex-col items-end">
      <p className={cn(bubble, "rounded-br-md bg-(--brand) text-(--brand-text)", failed ? "opacity-60" : "opacity-75")}>
        <span className="sr-only">You: </span>
        {item.text}
      </p>
      <p className={cn("mt-1 flex items-center gap-2 px-1 text-xs", failed ? "text-red-700" : "text-zinc-500")}>
        <span>{failed ? item.error : "Sending…"}</span>
        {failed ? (
          <button
            type="button"
            onClick={() => onRetry(item.localId)}
            className="rounded font-semibold text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
          >
            Retry
          </button>
        ) : null}
      </p>
    </li>
  );
}

export function MessageLog({ assistantName, messages, pending, onRetry }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const count = messages.length + pending.length;
  const lastPendingState = pending.map((item) => item.state).join();

  // Follow the conversation as it grows, unless the visitor scrolled up to read older messages.
  const nearBottom = useRef(true);
  useEffect(() => {
    const log = ref.current;
    if (log && nearBottom.current) log.scrollTop = log.scrollHeight;
  }, [count, lastPendingState]);

  return (
    <div
      ref={ref}
      role="log"
      aria-label="Conversation"
      aria-live="polite"
      // A scrollable region must be reachable by keyboard to be scrolled without a mouse.
      tabIndex={0}
      onScroll={(event) => {
        const log = event.currentTarget;
        nearBottom.current = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
      }}
      className={
        "min-h-0 flex-1 overflow-y-auto overscroll-contain bg-zinc-50 px-3 " +
        "py-4 focus-visible:outline-offset-[-2px] sm:px-4"
      }
    >
      <ol className="space-y-2.5">
        {messages.map((message, index) => {
          const previous = messages[index - 1];
          const showName =
            !previous || previous.author !== message.author || previous.author_name !== message.author_name;
          return <Message key={message.id} message={message} assistantName={assistantName} showName={showName} />;
        })}
        {pending.map((item) => (
          <PendingMessage key={item.localId} item={item} onRetry={onRetry} />
        ))}
      </ol>
    </div>
  );
}
