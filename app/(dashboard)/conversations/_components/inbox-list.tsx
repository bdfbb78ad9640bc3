import { Globe } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { ConversationStatus } from "@/lib/conversations/model";
import { STATUS_BADGES } from "../view-model";

export type InboxRow = {
  id: string;
  visitor: string;
  /** The visitor's email when the name is shown, so two people of one name can be told apart. */
  email: string | null;
  status: ConversationStatus;
  excerpt: { by: string; text: string } | null;
  when: { relative: string; full: string; iso: string };
  page: string | null;
};

/**
 * One tab's conversations as a list: each row opens the conversation (the visitor's name is the
 * link; the whole row is its click target). Texts from visitors are rendered as text, never HTML.
 */
export function InboxList({ rows }: { rows: InboxRow[] }) {
  return (
    <ul className="divide-y divide-zinc-100 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
      {rows.map((row) => {
        const badge = STATUS_BADGES[row.status];
        return (
          <li key={row.id} className="relative flex gap-4 px-4 py-3.5 transition-colors focus-within:bg-zinc-50 hover:bg-zinc-50 sm:px-5">
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <Link
                  href={`/conversations/${row.id}`}
                  className="truncate font-medium text-zinc-900 after:absolute after:inset-0 focus-visible:outline-none"
                  aria-describedby={`${row.id}-excerpt`}
                >
                  {row.visitor}
                </Link>
                {row.email ? <span className="truncate text-xs text-zinc-500">{row.email}</span> : null}
                <Badge tone={badge.tone} dot>
                  {badge.label}
                </Badge>
              </div>
              <p id={`${row.id}-excerpt`} className="mt-1 line-clamp-2 text-sm break-words text-zinc-600">
                {row.excerpt ? (
                  <>
                    <span className="font-medium text-zinc-700">{row.excerpt.by}: </span>
                    {row.excerpt.text}
                  </>
                ) : (
                  <span className="text-zinc-400">No messages yet</span>
                )}
              </p>
              {row.page ? (
                <p className="mt-1 flex min-w-0 items-center gap-1 text-xs text-zinc-500">
                  <Globe className="size-3 shrink-0" aria-hidden />
                  <span className="sr-only">Page: </span>
                  <span className="truncate">{row.page}</span>
                </p>
              ) : null}
            </div>
            <time dateTime={row.when.iso} title={row.when.full} className="shrink-0 pt-0.5 text-xs whitespace-nowrap text-zinc-500">
              {row.when.relative}
            </time>
          </li>
        );
      })}
    </ul>
  );
}
