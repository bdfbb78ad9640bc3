"use client";

import { ExternalLink } from "lucide-react";
import { useId } from "react";
import { buttonClasses } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClasses } from "@/components/ui/field";

/** The script tag to paste into a website, with Copy, and the hosted chat page to try the widget. */
export function EmbedSnippet({ snippet, chatPath, chatUrl }: { snippet: string; chatPath: string; chatUrl: string }) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mb-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200 sm:p-6"
    >
      <h2 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
        Add the chat to your website
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        Paste this tag into your website&apos;s HTML, just before{" "}
        <code className="font-mono text-xs">&lt;/body&gt;</code>, on every page that should offer the chat. It adds a
        chat button to the bottom corner of the page. Add the site to the allowed origins below, or the chat stays
        closed on it.
      </p>
      <div className="mt-4 space-y-1.5">
        <label htmlFor={`${id}-snippet`} className="block text-sm font-medium text-zinc-800">
          Embed snippet
        </label>
        <textarea
          id={`${id}-snippet`}
          readOnly
          rows={2}
          value={snippet}
          spellCheck={false}
          className={`${inputClasses} field-sizing-content resize-none font-mono text-xs [overflow-wrap:anywhere]`}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <CopyButton value={snippet} toastMessage="Embed snippet copied" />
        <a href={chatPath} target="_blank" rel="noopener noreferrer" className={buttonClasses("ghost")}>
          <ExternalLink className="size-4" aria-hidden />
          Open chat page
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
      <p className="mt-2 text-xs text-zinc-500">
        The chat page also works on its own, at <span className="font-mono break-all">{chatUrl}</span>: link to it from
        emails or social profiles.
      </p>
    </section>
  );
}
