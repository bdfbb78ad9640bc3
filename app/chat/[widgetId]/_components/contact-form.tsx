"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

/*
 * "Leave your email": name (optional) and email, so a person from the team can get back to the visitor
 * after the chat. The server creates or updates a lead from it (docs/chat-widget.md).
 */

type Props = {
  onSubmit: (contact: {
    name: string;
    email: string;
  }) => Promise<{ ok: true } | { ok: false; fields: Record<string, string>; message: string }>;
  onDone: () => void;
};

export function ContactForm({ onSubmit, onDone }: Props) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => formRef.current?.querySelector("input")?.focus(), []);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setMessage(null);
    const result = await onSubmit({ name: name.trim(), email: email.trim() });
    setSaving(false);
    if (result.ok) return onDone();
    setErrors(result.fields);
    if (!Object.keys(result.fields).length) setMessage(result.message);
  }

  return (
    <form
      ref={formRef}
      aria-label="Leave your email"
      onSubmit={submit}
      onKeyDown={(event) => {
        // Escape closes this form first, not the whole chat.
        if (event.key === "Escape") {
          event.stopPropagation();
          onDone();
        }
      }}
      className="space-y-3 border-t border-zinc-200 bg-white px-4 py-3"
    >
      <p className="text-sm text-zinc-600">Leave your email and someone from the team can get back to you.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={320}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
      </div>
      {message ? (
        <p role="alert" className="text-xs font-medium text-red-700">
          {message}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? "Saving…" : "Send details"}
        </Button>
      </div>
    </form>
  );
}
