"use client";

import { Pause, Play, RefreshCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { deleteCalendarFeedAction, pauseCalendarFeedAction, syncCalendarFeedAction } from "../actions";
import type { FeedRowView } from "./feed-view";
import { useFeedAct } from "./use-feeds";

/** A feed's buttons: Sync now, Pause / Resume, Delete (asking what becomes of its events). */
export function FeedActions({ feed }: { feed: FeedRowView }) {
  const { act, pending } = useFeedAct();
  const [events, setEvents] = useState<"keep" | "remove">("keep");
  const syncing = feed.state === "syncing";
  const paused = feed.state === "paused";

  return (
    <div className="flex flex-wrap justify-end gap-2">
      {paused ? null : (
        <Button
          variant="secondary"
          size="sm"
          disabled={pending || syncing}
          onClick={() => void act(() => syncCalendarFeedAction({ feedId: feed.id }))}
        >
          <RefreshCw className={syncing ? "size-3.5 animate-spin" : "size-3.5"} aria-hidden />
          Sync now
        </Button>
      )}
      <Button
        variant="secondary"
        size="sm"
        disabled={pending}
        onClick={() => void act(() => pauseCalendarFeedAction({ feedId: feed.id, paused: !paused }))}
      >
        {paused ? <Play className="size-3.5" aria-hidden /> : <Pause className="size-3.5" aria-hidden />}
        {paused ? "Resume" : "Pause"}
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="secondary" size="sm" disabled={pending}>
            <Trash2 className="size-3.5" aria-hidden />
            Delete
          </Button>
        }
        title={`Stop following “${feed.name}”?`}
        description="The feed is no longer synced. Choose what happens to the events it brought in."
        confirmLabel="Delete feed"
        pendingLabel="Deleting…"
        onConfirm={() => act(() => deleteCalendarFeedAction({ feedId: feed.id, events }))}
      >
        <fieldset className="space-y-2 text-sm text-zinc-700">
          <legend className="sr-only">Its {feed.eventCount} events</legend>
          <RadioOption
            name={`events-${feed.id}`}
            checked={events === "keep"}
            onSelect={() => setEvents("keep")}
            title={`Keep its ${feed.eventCount} events`}
          >
            as ordinary events of this account (edit or delete them yourself).
          </RadioOption>
          <RadioOption
            name={`events-${feed.id}`}
            checked={events === "remove"}
            onSelect={() => setEvents("remove")}
            title={`Remove its ${feed.eventCount} events`}
          >
            too. Subscribers get an event.deleted notification for each.
          </RadioOption>
        </fieldset>
      </ConfirmDialog>
    </div>
  );
}

/** One choice of a fieldset: a radio, its choice in bold and what follows from it. */
function RadioOption(props: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <label className="flex items-start gap-2">
      <input type="radio" name={props.name} checked={props.checked} onChange={props.onSelect} className="mt-1" />
      <span>
        <span className="font-medium text-zinc-900">{props.title}</span> {props.children}
      </span>
    </label>
  );
}
