"use client";

import {
  Building2,
  CalendarDays,
  KeyRound,
  Kanban,
  LayoutDashboard,
  MessageSquareText,
  MessagesSquare,
  ReceiptText,
  Rss,
  ScrollText,
  Send,
  Users,
  Webhook,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useId } from "react";
import { cn } from "@/components/ui/cn";

type Section = {
  heading?: string;
  group?: string;
  links: Array<{ href: string; label: string; icon: typeof CalendarDays }>;
};

const sections: Section[] = [
  // The dashboard's home, above the sections.
  { links: [{ href: "/", label: "Overview", icon: LayoutDashboard }] },
  {
    heading: "Knowledge",
    group: "Events",
    links: [
      { href: "/knowledge/events", label: "All Events", icon: CalendarDays },
      { href: "/knowledge/events/webhook", label: "Webhook", icon: Webhook },
      { href: "/knowledge/events/calendar-feeds", label: "Calendar feeds", icon: Rss },
    ],
  },
  {
    heading: "Sales",
    links: [
      { href: "/conversations", label: "Conversations", icon: MessagesSquare },
      { href: "/leads", label: "Leads", icon: Users },
    ],
  },
  {
    heading: "Settings",
    links: [
      { href: "/settings/account", label: "Account", icon: Building2 },
      { href: "/settings/api-keys", label: "API Keys", icon: KeyRound },
      { href: "/settings/webhooks", label: "Webhooks", icon: Send },
      { href: "/settings/chat-widget", label: "Chat widget", icon: MessageSquareText },
      { href: "/settings/pipeline", label: "Pipeline", icon: Kanban },
      { href: "/settings/audit-log", label: "Audit log", icon: ScrollText },
      { href: "/settings/plan", label: "Plan", icon: ReceiptText },
    ],
  },
];

/** Counts shown beside links, by href: conversations waiting for a person. */
export type NavCounts = Partial<Record<string, number>>;

export function NavLinks({ onNavigate, counts = {} }: { onNavigate?: () => void; counts?: NavCounts }) {
  const pathname = usePathname();
  // The desktop and the mobile navigation can both be in the DOM: ids of count descriptions differ.
  const idPrefix = useId();
  const countId = (href: string) => `${idPrefix}${href}-count`;
  return (
    <nav aria-label="Main" className="space-y-6">
      {sections.map((section) => (
        <div key={section.heading ?? "home"}>
          {section.heading ? (
            <p className="px-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{section.heading}</p>
          ) : null}
          {section.group ? <p className="mt-3 px-2 text-xs font-medium text-zinc-500">{section.group}</p> : null}
          <ul className={cn("space-y-0.5", section.heading && "mt-1.5")}>
            {section.links.map(({ href, label, icon: Icon }) => {
              // A lead's (or a subscription's) own page keeps its list marked as the current section.
              const active =
                pathname === href ||
                ((href === "/leads" || href === "/settings/webhooks" || href === "/conversations") &&
                  pathname.startsWith(`${href}/`)) ||
                // An event's page (its id) keeps All Events marked; the Events group's other pages are links of their
                // own.
                (href === "/knowledge/events" && /^\/knowledge\/events\/[0-9a-f-]{36}$/.test(pathname));
              const count = counts[href] ?? 0;
              return (
                <li key={href}>
                  <Link
                    href={href}
                    onClick={onNavigate}
                    aria-current={active ? "page" : undefined}
                    aria-describedby={count > 0 ? countId(href) : undefined}
                    className={cn(
                      "flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm font-medium transition-colors",
                      active ? "bg-indigo-50 text-indigo-700" : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900",
                    )}
                  >
                    <Icon className={cn("size-4", active ? "text-indigo-600" : "text-zinc-400")} aria-hidden />
                    {label}
                    {count > 0 ? <NavCount id={countId(href)} count={count} /> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/*
 * The number is decoration (aria-hidden) and described instead, so the link's accessible name stays
 * exactly its label ("Conversations"); assistive technology reads the description after the name.
 */
function NavCount({ id, count }: { id: string; count: number }) {
  return (
    <>
      <span
        aria-hidden
        className="ml-auto rounded-full bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-800 tabular-nums"
      >
        {count > 99 ? "99+" : count}
      </span>
      <span id={id} hidden>
        {count === 1 ? "1 conversation needs a person" : `${count} conversations need a person`}
      </span>
    </>
  );
}
