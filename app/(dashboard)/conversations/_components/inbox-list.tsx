import { Globe, UserRound } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { ConversationStatus } from "@/lib/conversations/model";
import { STATUS_BADGES, UNVERIFIED_BADGE } from "../view-model";

export type InboxRow = {
  id: string;
  visitor: string;
  /** The visitor's email when the name is shown, so two people of one name can be told apart. */
  email: string | null;
  /** The name and email are what the visitor typed in the chat: shown "Not verified". */
  claimed: boolean;
  /** A lead has the email the visitor typed, and the conversation is not linked to it. */
  leadExists: boolean;
  status: ConversationStatus;
  /** The visitor's first message: what the conversation is about. */
  topic: string | null;
  /** The latest message, when it is not the first one. */
  latest: { by: string; text: string } | null;
  when: { relative: string; full: string; iso: string };
  page: string | null;
};

/**
 * One tab's conversations as a list: each row opens the conversation (the visitor's name is the
 * link, described by the row's texts; the whole row is its click target). Texts from visitors are
 * rendered as text, never HTML.
 */
export function InboxList({ rows }: { rows: InboxRow[] }) {
  return (
    <ul className="divide-y divide-zinc-100 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
      {rows.map((row) => {
        const badge = STATUS_BADGES[row.status];
        return (
          <li
            key={row.id}
            className={
              "relative flex gap-4 px-4 py-3.5 transition-colors hover:bg-zinc-50 " +
              "has-[:focus-visible]:bg-zinc-50 has-[:focus-visible]:ring-2 " +
              "has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-inset sm:px-5"
            }
          >
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
                {row.claimed ? (
                  <Badge tone={UNVERIFIED_BADGE.tone} title={UNVERIFIED_BADGE.title}>
                    {UNVERIFIED_BADGE.label}
                  </Badge>
                ) : null}
                <Badge tone={badge.tone} dot>
                  {badge.label}
                </Badge>
              </div>
              <div id={`${row.id}-excerpt`} className="mt-1 space-y-0.5 text-sm break-words">
                {row.topic ? <p className="line-clamp-1 font-medium text-zinc-800">{row.topic}</p> : null}
                {row.latest ? (
                  <p className="line-clamp-2 text-zinc-600">
                    <span className="font-medium text-zinc-700">{row.latest.by}: </span>
                    {row.latest.text}
                  </p>
                ) : null}
                {!row.topic && !row.latest ? <p className="text-zinc-500">No messages yet</p> : null}
              </div>
              {row.leadExists ? (
                <p className="mt-1 flex min-w-0 items-center gap-1 text-xs text-amber-800">
                  <UserRound className="size-3 shrink-0" aria-hidden />A lead with this email exists. Not linked.
                </p>
              ) : null}
              {row.page ? (
                <p className="mt-1 flex min-w-0 items-center gap-1 text-xs text-zinc-500">
                  <Globe className="size-3 shrink-0" aria-hidden />
                  <span className="sr-only">Page: </span>
                  <span className="truncate">{row.page}</span>
                </p>
              ) : null}
            </div>
            <time
              dateTime={row.when.iso}
              title={row.when.full}
              className="shrink-0 pt-0.5 text-xs whitespace-nowrap text-zinc-500"
            >
              {row.when.relative}
            </time>
          </li>
        );
      })}
    </ul>
  );
}
