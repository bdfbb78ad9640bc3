"use client";

import { useActionState, useId, useState } from "react";
import { toast } from "sonner";
import { ChatPreview } from "@/components/chat/chat-preview";
import { Button } from "@/components/ui/button";
import { Field, inputClasses, TextAreaField } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { formError, type ActionResult } from "@/lib/actions/result";
import { brandColors } from "@/lib/conversations/brand";
import { handoffNotice } from "@/lib/conversations/handoff-notice";
import type { Branding } from "@/lib/conversations/settings-branding";
import { MAX_ASSISTANT_NAME_LENGTH, MAX_GREETING_LENGTH, type SettingsField } from "@/lib/conversations/settings-input";
import { saveChatWidgetSettingsAction, type SavedWidgetSettings } from "../actions";
import { BrandingFields } from "./branding-fields";
import { charactersUsed } from "./characters-used";

type Values = { assistantName: string; greeting: string; allowedOrigins: string } & Branding;
const FIELDS: SettingsField[] = [
  "assistantName",
  "greeting",
  "allowedOrigins",
  "businessName",
  "logoUrl",
  "brandColor",
  "replyTime",
];
type Result = ActionResult<SavedWidgetSettings> | null;

const originsText = (origins: readonly string[]) => origins.join("\n");

/**
 * Assistant name, greeting and allowed origins, with the preview beside them (below on a phone) showing
 * what is typed before it is saved. Members see the same fields read-only and no Save button.
 */
export function WidgetSettingsForm({
  initial,
  canManage,
}: {
  initial: { assistantName: string; greeting: string; allowedOrigins: string[] } & Branding;
  canManage: boolean;
}) {
  const ids = useId();
  // Controlled: React resets uncontrolled fields after a form action, which would wipe what was typed
  // when the server answers with field errors.
  const [saved, setSaved] = useState<Values>({ ...initial, allowedOrigins: originsText(initial.allowedOrigins) });
  const [values, setValues] = useState<Values>(saved);
  const [result, submit, pending] = useActionState<Result, FormData>(async (_previous, form) => {
    let answer: ActionResult<SavedWidgetSettings>;
    try {
      answer = await saveChatWidgetSettingsAction(form);
    } catch {
      // The server could not be reached or failed: say so here rather than replacing the page.
      return { ok: false, error: "The settings could not be saved. Check your connection and try again." };
    }
    if (answer.ok) {
      // The stored form of the values: trimmed, origins canonical, one per line.
      const data = answer.data;
      const stored: Values = {
        assistantName: data.assistantName,
        greeting: data.greeting,
        allowedOrigins: originsText(data.allowedOrigins),
        businessName: data.businessName,
        logoUrl: data.logoUrl,
        brandColor: data.brandColor,
        replyTime: data.replyTime,
      };
      setSaved(stored);
      setValues(stored);
      toast.success(answer.data.message);
    }
    return answer;
  }, null);

  // A field's errors stay until the user changes that field; a new answer from the server starts afresh.
  const [edited, setEdited] = useState<{ answer: Result; fields: ReadonlySet<SettingsField> }>({
    answer: result,
    fields: new Set(),
  });
  const editedFields = edited.answer === result ? edited.fields : new Set<SettingsField>();
  const errorsOf = (field: SettingsField) =>
    result && !result.ok && !editedFields.has(field) ? (result.fieldErrors?.[field] ?? []) : [];
  const set = (field: SettingsField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setEdited({ answer: result, fields: new Set([...editedFields, field]) });
  };
  const change = (field: SettingsField) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    set(field, event.target.value);
  const dirty = FIELDS.some((field) => values[field] !== saved[field]);
  // The preview shows a logo only once its address could be saved.
  const previewLogo = /^https:\/\/[^\s/]+\.[^\s]+$/i.test(values.logoUrl.trim()) ? values.logoUrl.trim() : "";

  const originsId = `${ids}-origins`;
  const originErrors = errorsOf("allowedOrigins");

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] xl:grid-cols-[minmax(0,1fr)_22rem]">
      <form
        action={submit}
        noValidate
        className="space-y-5 rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200 sm:p-6"
        aria-labelledby={`${ids}-title`}
      >
        <div>
          <h2 id={`${ids}-title`} className="text-sm font-semibold text-zinc-900">
            Assistant, websites and brand
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            {canManage
              ? "Changes apply to conversations that start after you save."
              : "Only owners and admins can change these settings."}
          </p>
        </div>
        <FormAlert>{formError(result)}</FormAlert>
        <Field
          label="Assistant name"
          name="assistantName"
          value={values.assistantName}
          onChange={change("assistantName")}
          maxLength={MAX_ASSISTANT_NAME_LENGTH}
          readOnly={!canManage}
          autoComplete="off"
          hint={
            `Shown at the top of the chat and on each answer. ` +
            `Up to ${charactersUsed(MAX_ASSISTANT_NAME_LENGTH, values.assistantName)}.`
          }
          error={errorsOf("assistantName")[0]}
        />
        <TextAreaField
          label="Greeting"
          name="greeting"
          rows={3}
          value={values.greeting}
          onChange={change("greeting")}
          maxLength={MAX_GREETING_LENGTH}
          readOnly={!canManage}
          hint={
            `The first message of every conversation. ` +
            `Up to ${charactersUsed(MAX_GREETING_LENGTH, values.greeting)}.`
          }
          error={errorsOf("greeting")[0]}
        />
        <div className="space-y-1.5">
          <label htmlFor={originsId} className="block text-sm font-medium text-zinc-800">
            Allowed website origins
          </label>
          <textarea
            id={originsId}
            name="allowedOrigins"
            rows={4}
            value={values.allowedOrigins}
            onChange={change("allowedOrigins")}
            readOnly={!canManage}
            placeholder={"https://www.example.com\nhttps://shop.example.com"}
            spellCheck={false}
            autoComplete="off"
            className={`${inputClasses} font-mono`}
            aria-invalid={originErrors.length ? true : undefined}
            aria-describedby={[`${originsId}-hint`, originErrors.length ? `${originsId}-error` : null]
              .filter(Boolean)
              .join(" ")}
          />
          {originErrors.length ? (
            <ul id={`${originsId}-error`} className="space-y-0.5 text-xs font-medium text-red-600">
              {originErrors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : null}
          <div id={`${originsId}-hint`} className="space-y-1 text-xs text-zinc-500">
            <p>
              One per line: the scheme and host of each site that embeds the widget, such as https://www.example.com (a
              different subdomain or port is a different origin). Pages on other sites cannot show the widget.
            </p>
            <p>Leave it empty and the widget works only on its hosted chat page.</p>
          </div>
        </div>
        <BrandingFields values={values} onChange={set} errorsOf={errorsOf} readOnly={!canManage} />
        {canManage ? (
          <div className="flex flex-wrap items-center gap-3 border-t border-zinc-100 pt-4">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save"}
            </Button>
            {dirty && !pending ? (
              <p className="text-xs text-zinc-500">You have unsaved changes; the preview shows them.</p>
            ) : null}
          </div>
        ) : null}
      </form>
      <figure className="space-y-2 lg:sticky lg:top-6 lg:self-start">
        <figcaption className="text-sm font-semibold text-zinc-900">Preview</figcaption>
        <ChatPreview
          assistantName={values.assistantName}
          greeting={values.greeting}
          businessName={values.businessName}
          logoUrl={previewLogo}
          colors={brandColors(values.brandColor)}
          handoffNote={handoffNotice(values.replyTime.replace(/\s+/g, " "))}
        />
        <p className="text-xs text-zinc-500">
          How the chat opens for a visitor.
          {canManage ? " It follows what you type; nothing is saved until you press Save." : null}
        </p>
      </figure>
    </div>
  );
}
