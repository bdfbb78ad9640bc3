"use client";

import { Tabs } from "radix-ui";
import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";

export type CodeSample = { id: string; label: string; code: string };

/** Keyboard-navigable tabs of code samples; the copy button copies the sample on show. */
export function CodeTabs({ samples, label }: { samples: CodeSample[]; label: string }) {
  const [selected, setSelected] = useState(samples[0]?.id ?? "");
  const current = samples.find((sample) => sample.id === selected) ?? samples[0];
  return (
    <Tabs.Root value={selected} onValueChange={setSelected} className="overflow-hidden rounded-lg ring-1 ring-zinc-800">
      <div className="flex items-center justify-between bg-zinc-900 px-2">
        <Tabs.List aria-label={label} className="flex">
          {samples.map((sample) => (
            <Tabs.Trigger
              key={sample.id}
              value={sample.id}
              className={
                "border-b-2 border-transparent px-3 py-2.5 text-xs font-medium text-zinc-400 " +
                "hover:text-zinc-200 data-[state=active]:border-indigo-400 data-[state=active]:text-white"
              }
            >
              {sample.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {current ? (
          <CopyButton
            value={current.code}
            size="sm"
            toastMessage={`${current.label} example copied`}
            aria-label={`Copy ${current.label} example`}
          />
        ) : null}
      </div>
      {samples.map((sample) => (
        <Tabs.Content key={sample.id} value={sample.id} className="bg-zinc-950 focus:outline-none">
          <pre tabIndex={0} className="overflow-x-auto p-4 text-xs leading-5 text-zinc-100">
            <code>{sample.code}</code>
          </pre>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
