"use client";

import { ArrowUp, Mail, UserRound } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ASSISTANT_STATUS, ChatHeader } from "@/components/chat/chat-header";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { brandColors } from "@/lib/conversations/brand";
import type { ChatMessage, ConversationStatus } from "./chat-client";
import { ContactForm } from "./contact-form";
import { MessageLog } from "./message-log";
import { useChat } from "./use-chat";

/*
 * The hosted chat (docs/chat-widget.md): on its own at /chat/{widget_id}, or inside widget.js's frame
 * (`embed=1`), where Escape asks the host page to close the frame. Enter sends, Shift+Enter starts a
 * new line; focus returns to the message box after every action.
 */

/** The two messages exchanged with public/widget.js, which owns the frame. */
export const CLOSE_MESSAGE = "chat-widget:close";
export const FOCUS_MESSAGE = "chat-widget:focus";
const MAX_LENGTH = 4_000;

type Props = {
  widgetId: string;
  assistantName: string;
  greeting: string;
  businessName: string;
  logoUrl: string;
  brandColor: string;
  embedded: boolean;
  pageUrl: string | null;
  referrer: string | null;
};

const STATUS_TEXT: Record<ConversationStatus | "new", string> = {
  new: ASSISTANT_STATUS,
  bot: ASSISTANT_STATUS,
  handoff_requested: "Waiting for a person from the team",
  handoff_active: "Chatting with the team",
  closed: "Conversation closed",
};

export function ChatWindow({
  widgetId,
  assistantName,
  greeting,
  businessName,
  logoUrl,
  brandColor,
  embedded,
  pageUrl,
  referrer,
}: Props) {
  const colors = brandColors(brandColor);
  const chat = useChat({ widgetId, pageUrl, referrer });
  const [draft, setDraft] = useState("");
  const [contactOpen, setContactOpen] = useState(false);
  const textbox = useRef<HTMLTextAreaElement>(null);
  const closed = chat.status === "closed";
  const focusTextbox = () => requestAnimationFrame(() => textbox.current?.focus());

  // Before the first message nothing is stored: the greeting is shown from the widget's settings.
  const greetingMessage: ChatMessage = {
    id: "greeting",
    seq: 0,
    author: "assistant",
    author_name: assistantName,
    text: greeting,
    created_at: "",
  };
  const messages = chat.messages.length || !greeting ? chat.messages : [greetingMessage];

  useEffect(() => {
    if (!embedded) return;
    const onKey = (event: KeyboardEvent) => {
      // Only the host page can close its frame; the message carries nothing but the request.
      if (event.key === "Escape" && !event.defaultPrevented) window.parent.postMessage({ type: CLOSE_MESSAGE }, "*");
    };
    // widget.js asks for focus when it opens the frame (a cross-origin frame may not autofocus itself).
    const onMessage = (event: MessageEvent) => {
      if (event.source === window.parent && (event.data as { type?: unknown } | null)?.type === FOCUS_MESSAGE)
        textbox.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    window.addEventListener("message", onMessage);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("message", onMessage);
    };
  }, [embedded]);

  // The message box grows with its text, up to a few lines.
  useEffect(() => {
    const box = textbox.current;
    if (!box) return;
    box.style.height = "auto";
    box.style.height = `${Math.min(box.scrollHeight, 128)}px`;
  }, [draft]);

  async function submit() {
    const text = draft.trim();
    if (!text || chat.starting || closed) return;
    setDraft("");
    focusTextbox();
    const { restore } = await chat.send(text);
    if (restore !== undefined) setDraft((current) => current || restore);
  }

  async function askForPerson() {
    await chat.askForPerson();
    focusTextbox();
  }

  function startNew() {
    // A draft the closed conversation refused stays in the box for the new one.
    chat.startNew();
    setContactOpen(false);
    focusTextbox();
  }

  const canAskForPerson = !closed && (chat.status === null || chat.status === "bot");
  const canLeaveContact = chat.session !== null && !closed && !chat.contactLeft;

  return (
    <main
      className={cn(
        "flex bg-zinc-100",
        embedded ? "h-dvh" : "min-h-dvh items-stretch justify-center sm:items-center sm:p-6",
      )}
    >
      <section
        aria-label={`Chat with ${businessName || assistantName}`}
        // The visitor's messages and the send button wear the brand colour too (message-log.tsx).
        style={
          {
            "--brand": colors.background,
            "--brand-text": colors.text,
            "--brand-focus": colors.focus,
          } as React.CSSProperties
        }
        className={cn(
          "flex w-full flex-col overflow-hidden bg-white",
          embedded
            ? "h-full"
            : "h-dvh sm:h-[min(44rem,calc(100dvh-3rem))] sm:max-w-md " +
                "sm:rounded-2xl sm:shadow-xl sm:ring-1 sm:ring-zinc-200",
        )}
      >
        <ChatHeader
          businessName={businessName}
          assistantName={assistantName}
          logoUrl={logoUrl}
          colors={colors}
          status={STATUS_TEXT[chat.status ?? "new"]}
          className={embedded ? "pr-14" : "pr-4"}
        />

        <MessageLog assistantName={assistantName} messages={messages} pending={chat.pending} onRetry={chat.retry} />

        {chat.notice ? (
          <div
            role="alert"
            className={
              "flex shrink-0 items-start justify-between gap-3 border-t " +
              "border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800"
            }
          >
            <span>{chat.notice.message}</span>
            <button
              type="button"
              onClick={chat.dismissNotice}
              className="shrink-0 rounded text-xs font-semibold underline underline-offset-2"
            >
              Dismiss
            </button>
          </div>
        ) : null}

        {contactOpen && canLeaveContact ? (
          <ContactForm
            onSubmit={chat.leaveContact}
            onDone={() => {
              setContactOpen(false);
              focusTextbox();
            }}
          />
        ) : null}

        {closed ? (
          <div className="shrink-0 space-y-3 border-t border-zinc-200 bg-white px-4 py-4 text-center">
            <p className="text-sm text-zinc-600">This conversation is closed.</p>
            <Button onClick={startNew} className="w-full sm:w-auto">
              Start a new conversation
            </Button>
          </div>
        ) : (
          <div
            className={
              "shrink-0 border-t border-zinc-200 bg-white px-3 " +
              "pb-[max(0.75rem,env(safe-area-inset-bottom))] pt-3 sm:px-4"
            }
          >
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void submit();
              }}
              className="flex items-end gap-2"
            >
              <label htmlFor="chat-message" className="sr-only">
                Message
              </label>
              <textarea
                ref={textbox}
                id="chat-message"
                rows={1}
                maxLength={MAX_LENGTH}
                value={draft}
                placeholder="Write a message…"
                autoFocus={embedded}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                    event.preventDefault();
                    void submit();
                  }
                }}
                className={
                  "block max-h-32 min-h-10 w-full resize-none rounded-2xl border-0 bg-zinc-100 px-4 py-2.5 " +
                  "text-[0.9375rem] leading-snug text-zinc-900 placeholder:text-zinc-500 focus:bg-white " +
                  "focus:ring-2 focus:ring-(--brand-focus) focus:outline-none"
                }
              />
              <button
                type="submit"
                disabled={!draft.trim() || chat.starting}
                className={
                  "flex size-10 shrink-0 items-center justify-center rounded-full bg-(--brand) " +
                  "text-(--brand-text) shadow-sm transition-opacity hover:opacity-90 " +
                  "disabled:opacity-40 motion-reduce:transition-none"
                }
              >
                <ArrowUp className="size-5" aria-hidden />
                <span className="sr-only">Send</span>
              </button>
            </form>
            {draft.length > MAX_LENGTH - 500 ? (
              <p className="mt-1 px-2 text-right text-xs text-zinc-500">
                {draft.length.toLocaleString("en")} / {MAX_LENGTH.toLocaleString("en")}
              </p>
            ) : null}
            <div className="mt-2 flex flex-wrap items-center gap-x-1 gap-y-1">
              {canAskForPerson ? (
                <Button variant="ghost" size="sm" onClick={askForPerson} disabled={chat.busy || chat.starting}>
                  <UserRound className="size-4" aria-hidden />
                  Talk to a person
                </Button>
              ) : null}
              {canLeaveContact && !contactOpen ? (
                <Button variant="ghost" size="sm" onClick={() => setContactOpen(true)}>
                  <Mail className="size-4" aria-hidden />
                  Leave your email
                </Button>
              ) : null}
            </div>
          </div>
        )}
      </section>
    </main>
  );
}
