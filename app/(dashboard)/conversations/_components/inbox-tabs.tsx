"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef } from "react";
import { cn } from "@/components/ui/cn";
import { INBOX_PANEL_ID, tabId } from "../view-model";

export type TabLink = { key: string; label: string; href: string; count?: number; countDescription?: string };

/**
 * The inbox's status tabs. Each tab is a link (the tab lives in the URL, so a reload or a shared link
 * opens the same tab and its paging works); arrow keys, Home and End move between tabs and open them,
 * as in the ARIA tabs pattern. A count is decoration beside the name (aria-hidden), described instead,
 * so each tab's accessible name stays exactly its label.
 */
export function InboxTabs({ tabs, current, label }: { tabs: TabLink[]; current: string; label: string }) {
  const router = useRouter();
  const refs = useRef<Array<HTMLAnchorElement | null>>([]);

  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    refs.current[next]?.focus();
    router.push(tabs[next].href, { scroll: false });
  };

  return (
    <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-zinc-200">
      {tabs.map((tab, index) => {
        const selected = tab.key === current;
        const descriptionId = `${tabId(tab.key)}-count`;
        return (
          <Link
            key={tab.key}
            ref={(element) => {
              refs.current[index] = element;
            }}
            href={tab.href}
            scroll={false}
            role="tab"
            id={tabId(tab.key)}
            aria-selected={selected}
            aria-controls={selected ? INBOX_PANEL_ID : undefined}
            aria-describedby={tab.count ? descriptionId : undefined}
            tabIndex={selected ? 0 : -1}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={cn(
              "-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 px-2 py-2.5 text-sm " +
                "font-medium whitespace-nowrap transition-colors sm:gap-2 sm:px-3",
              selected
                ? "border-indigo-600 text-indigo-700"
                : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900",
            )}
          >
            {tab.label}
            {tab.count ? (
              <>
                <span
                  aria-hidden
                  className={cn(
                    "rounded-full px-1.5 py-0.5 text-xs font-semibold tabular-nums",
                    selected ? "bg-indigo-100 text-indigo-700" : "bg-amber-100 text-amber-800",
                  )}
                >
                  {tab.count}
                </span>
                <span id={descriptionId} hidden>
                  {tab.countDescription}
                </span>
              </>
            ) : null}
          </Link>
        );
      })}
    </div>
  );
}
