"use client";

import { Send } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { MAX_MESSAGE_LENGTH } from "@/lib/conversations/text";
import type { ConversationStatus } from "@/lib/conversations/model";
import { replyToConversationAction } from "../../actions";
import type { MessageView } from "../../view-model";

const UNAVAILABLE: Partial<Record<ConversationStatus, string>> = {
  bot: "The assistant is handling this conversation. You can reply once the visitor asks for a person.",
  closed: "This conversation is closed. The visitor can start a new one from the chat.",
};

/**
 * The agent's reply. Enabled only while the conversation is in handoff (the domain refuses anything
 * else anyway, and the refusal is shown in words). Enter sends, Shift+Enter starts a new line.
 */
export function ReplyBox({
  conversationId,
  status,
  onSent,
  onRefused,
}: {
  conversationId: string;
  status: ConversationStatus;
  onSent: (message: MessageView) => void;
  onRefused: () => void;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const unavailable = UNAVAILABLE[status];
  const enabled = !unavailable;

  const send = async () => {
    if (!enabled || sending) return;
    if (!text.trim()) {
      setError("Write a reply first.");
      field.current?.focus();
      return;
    }
    setSending(true);
    setError(null);
    try {
      const result = await replyToConversationAction({ conversationId, text });
      if (result.ok) {
        setText("");
        onSent(result.data.message);
      } else {
        setError(result.error);
        onRefused();
      }
    } catch {
      setError("Your reply could not be sent. Check your connection and try again.");
    } finally {
      setSending(false);
      field.current?.focus();
    }
  };

  const describedBy = [unavailable ? `${id}-unavailable` : `${id}-hint`, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <form
      className="space-y-2 border-t border-zinc-200 bg-zinc-50/60 px-4 py-4 sm:px-6"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        Reply
      </label>
      <textarea
        ref={field}
        id={id}
        name="text"
        rows={3}
        value={text}
        maxLength={MAX_MESSAGE_LENGTH}
        disabled={!enabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void send();
          }
        }}
        placeholder={enabled ? "Write to the visitor…" : undefined}
        className={`${inputClasses} resize-y`}
      />
      {error ? (
        <div id={`${id}-error`}>
          <FormAlert>{error}</FormAlert>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        {unavailable ? (
          <p id={`${id}-unavailable`} className="text-sm text-zinc-600">
            {unavailable}
          </p>
        ) : (
          <p id={`${id}-hint`} className="text-xs text-zinc-500">
            Enter sends, Shift+Enter adds a line. The visitor sees your reply with your name within seconds.
          </p>
        )}
        <Button type="submit" disabled={!enabled || sending}>
          <Send className="size-4" aria-hidden />
          {sending ? "Sending…" : "Send reply"}
        </Button>
      </div>
    </form>
  );
}
