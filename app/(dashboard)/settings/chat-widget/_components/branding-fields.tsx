"use client";

import { useId } from "react";
import { Field, inputClasses } from "@/components/ui/field";
import { contrastRatio, DEFAULT_BRAND_COLOR, normaliseHexColor, readableTextColor } from "@/lib/conversations/brand";
import {
  MAX_BUSINESS_NAME_LENGTH,
  MAX_LOGO_URL_LENGTH,
  MAX_REPLY_TIME_LENGTH,
  type Branding,
} from "@/lib/conversations/settings-branding";
import { charactersUsed } from "./characters-used";

/*
 * The branding part of Settings → Chat widget: business name, logo address, brand colour (typed as hex
 * or picked) and the usual reply time. The colour's hint says which text colour the chat will put on it
 * and the contrast that gives, so the owner sees that any colour stays readable.
 */

type Props = {
  values: Branding;
  onChange: (field: keyof Branding, value: string) => void;
  errorsOf: (field: keyof Branding) => string[];
  readOnly: boolean;
};

/** Each text setting's limit: its input's maxLength and the count in its hint. */
const LIMITS = {
  businessName: MAX_BUSINESS_NAME_LENGTH,
  logoUrl: MAX_LOGO_URL_LENGTH,
  replyTime: MAX_REPLY_TIME_LENGTH,
} as const;

function colourHint(value: string): string {
  const colour = normaliseHexColor(value);
  if (value.trim() === "") return `Empty: the default indigo (${DEFAULT_BRAND_COLOR.toUpperCase()}).`;
  if (!colour) return "A hex code such as #4F46E5.";
  const text = readableTextColor(colour);
  const name = text === "#ffffff" ? "white" : "black";
  return `Text on it is ${name} (contrast ${contrastRatio(colour, text).toFixed(1)}:1), so it stays readable.`;
}

export function BrandingFields({ values, onChange, errorsOf, readOnly }: Props) {
  const ids = useId();
  const colourId = `${ids}-colour`;
  const colourErrors = errorsOf("brandColor");
  const picked = normaliseHexColor(values.brandColor) ?? DEFAULT_BRAND_COLOR;
  const field = (name: keyof typeof LIMITS) => ({
    name,
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(name, event.target.value),
    readOnly,
    autoComplete: "off",
    maxLength: LIMITS[name],
    error: errorsOf(name)[0],
  });
  const used = (name: keyof typeof LIMITS) => charactersUsed(LIMITS[name], values[name]);

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-5 border-t border-zinc-100 pt-5">
      <h3 id={`${ids}-title`} className="text-sm font-semibold text-zinc-900">
        Your brand in the chat
      </h3>
      <Field
        label="Business name"
        {...field("businessName")}
        placeholder="Harbour Hall"
        hint={`Shown at the top of the chat. Optional; up to ${used("businessName")}.`}
      />
      <Field
        label="Logo address"
        type="url"
        inputMode="url"
        spellCheck={false}
        {...field("logoUrl")}
        placeholder="https://www.example.com/logo.png"
        hint={
          "Optional. An image on your website, starting with https://; " +
          "a square one looks best. It is shown small and round."
        }
      />
      <div className="space-y-1.5">
        <label htmlFor={colourId} className="block text-sm font-medium text-zinc-800">
          Brand colour
        </label>
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label="Pick the brand colour"
            value={picked}
            disabled={readOnly}
            onChange={(event) => onChange("brandColor", event.target.value)}
            className={
              "h-9 w-11 shrink-0 cursor-pointer rounded-md border-0 bg-white p-1 ring-1 " +
              "ring-zinc-300 ring-inset disabled:cursor-default"
            }
          />
          <input
            id={colourId}
            name="brandColor"
            value={values.brandColor}
            onChange={(event) => onChange("brandColor", event.target.value)}
            readOnly={readOnly}
            placeholder={DEFAULT_BRAND_COLOR.toUpperCase()}
            spellCheck={false}
            autoComplete="off"
            maxLength={7}
            className={`${inputClasses} max-w-40 font-mono uppercase`}
            aria-invalid={colourErrors.length ? true : undefined}
            aria-describedby={`${colourId}-${colourErrors.length ? "error" : "hint"}`}
          />
        </div>
        {colourErrors.length ? (
          <p id={`${colourId}-error`} className="text-xs font-medium text-red-600">
            {colourErrors[0]}
          </p>
        ) : (
          <p id={`${colourId}-hint`} className="text-xs text-zinc-500">
            For the chat&apos;s header, the visitor&apos;s messages and the send button. {colourHint(values.brandColor)}
          </p>
        )}
      </div>
      <Field
        label="When your team usually answers"
        {...field("replyTime")}
        placeholder="We usually answer within an hour, Monday to Friday."
        hint={`Shown to a visitor who asks for a person. Optional; up to ${used("replyTime")}.`}
      />
    </section>
  );
}
