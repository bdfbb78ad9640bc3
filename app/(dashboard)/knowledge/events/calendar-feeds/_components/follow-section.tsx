"use client";

import { CalendarClock, CircleAlert } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { SectionHeading } from "@/components/ui/section-heading";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { FeedState } from "@/lib/calendar-feeds/model";
import { AddFeedDialog } from "./add-feed-dialog";
import { FeedActions } from "./feed-actions";
import type { FeedRowView, SyncEntry } from "./feed-view";
import { ReloadFeeds, useFeeds } from "./use-feeds";

/** Each state's badge: its words and its tone. */
const STATES: Record<FeedState, [label: string, tone: BadgeTone]> = {
  new: ["Waiting for its first sync", "neutral"],
  syncing: ["Syncing…", "indigo"],
  ok: ["Up to date", "green"],
  failing: ["Failing", "red"],
  attention: ["Synced, with problems", "amber"],
  paused: ["Paused", "amber"],
};

function StateBadge({ state }: { state: FeedState }) {
  const [label, tone] = STATES[state];
  return (
    <Badge tone={tone} dot>
      {label}
    </Badge>
  );
}

/** "Follow a calendar": the feeds the account follows, their state and last syncs, and adding one. */
export function FollowSection({ initialFeeds, canManage }: { initialFeeds: FeedRowView[]; canManage: boolean }) {
  const { feeds, reload } = useFeeds(initialFeeds);
  return (
    <ReloadFeeds.Provider value={reload}>
      <section aria-labelledby="follow-calendar" className="rounded-xl bg-white shadow-sm ring-1 ring-zinc-200">
        <div
          className={
            "flex flex-col gap-3 border-b border-zinc-200 px-6 py-4 " + "sm:flex-row sm:items-start sm:justify-between"
          }
        >
          <div>
            <SectionHeading id="follow-calendar" title="Follow a calendar">
              Keep this account&apos;s events in sync with a calendar published as an iCalendar feed: a venue&apos;s
              Google or Outlook calendar, a booking system. Its events appear in All Events and the assistant answers
              from them.
            </SectionHeading>
          </div>
          {canManage && feeds.length > 0 ? <AddFeedDialog /> : null}
        </div>
        <div className="px-6 py-5">
          {feeds.length === 0 ? (
            <EmptyState
              icon={<CalendarClock className="size-6" aria-hidden />}
              title="No calendars followed yet"
              action={canManage ? <AddFeedDialog /> : undefined}
            >
              Paste a calendar&apos;s .ics address and its events are brought in and kept up to date every 15 minutes.
              {canManage ? null : " Owners and admins can add one."}
            </EmptyState>
          ) : (
            <FeedTable feeds={feeds} canManage={canManage} />
          )}
        </div>
      </section>
    </ReloadFeeds.Provider>
  );
}

function FeedTable({ feeds, canManage }: { feeds: FeedRowView[]; canManage: boolean }) {
  return (
    <Table aria-label="Calendar feeds" containerClassName="shadow-none">
      <TableHeader>
        <TableRow>
          <TableHead>Feed</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Last sync</TableHead>
          <TableHead className="text-right">Events</TableHead>
          {canManage ? (
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {feeds.map((feed) => (
          <TableRow key={feed.id}>
            <TableCell className="max-w-xs">
              <p className="font-medium text-zinc-900">{feed.name}</p>
              <p className="truncate font-mono text-xs text-zinc-500" title={feed.url}>
                {feed.url}
              </p>
              <p className="text-xs text-zinc-500">{feed.every}</p>
            </TableCell>
            <TableCell className="max-w-sm">
              <StateBadge state={feed.state} />
              {feed.error && feed.state !== "syncing" ? (
                <p className="mt-1.5 flex gap-1.5 text-xs text-red-700">
                  <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
                  <span>
                    {feed.error}
                    {feed.failures > 1 ? ` (${feed.failures} syncs in a row)` : null}
                  </span>
                </p>
              ) : null}
              {feed.state === "paused" ? (
                <p className="mt-1.5 text-xs text-zinc-500">Not synced until resumed; its events stay.</p>
              ) : null}
            </TableCell>
            <TableCell>
              {feed.lastSync ? (
                <LastSync feed={feed} last={feed.lastSync} />
              ) : (
                <span className="text-zinc-500">Never</span>
              )}
            </TableCell>
            <TableCell className="text-right tabular-nums">{feed.eventCount.toLocaleString("en-US")}</TableCell>
            {canManage ? (
              <TableCell>
                <FeedActions feed={feed} />
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function LastSync({ feed, last }: { feed: FeedRowView; last: SyncEntry }) {
  return (
    <div className="space-y-1 text-sm">
      <p>
        <time title={last.whenFull}>{last.when}</time>
      </p>
      <p className="text-xs text-zinc-500">{last.summary}</p>
      {feed.state !== "paused" ? <p className="text-xs text-zinc-500">Next: {feed.nextSync}</p> : null}
      {feed.syncs.length > 0 ? (
        <details className="text-xs">
          <summary className="cursor-pointer text-indigo-700">Sync log</summary>
          <ul className="mt-1 space-y-1" aria-label={`Sync log of ${feed.name}`}>
            {feed.syncs.map((sync) => (
              <li key={sync.id} className="text-zinc-600">
                <time title={sync.whenFull}>{sync.when}</time>: {sync.summary}
                {sync.error ? <span className="block text-red-700">{sync.error}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
