"use client";

import { createContext, useCallback, useContext, useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import type { ActionResult } from "@/lib/actions/result";
import { listCalendarFeedsAction } from "../actions";
import type { FeedRowView } from "./feed-view";

/*
 * The section's feeds, reloaded by a server action after each change and every 2 seconds while a sync runs.
 * Not router.refresh(): every render of the page records a view of the secret feed URL in the audit log.
 */

const UNREACHABLE = "The server could not be reached. Check your connection and try again.";

export function useFeeds(initial: FeedRowView[]) {
  const [feeds, setFeeds] = useState(initial);
  const reload = useCallback(async () => {
    const result = await listCalendarFeedsAction({}).catch(() => null);
    if (result?.ok) setFeeds(result.data);
  }, []);
  const syncing = feeds.some((feed) => feed.state === "syncing");
  useEffect(() => {
    if (!syncing) return;
    const timer = window.setInterval(() => void reload(), 2_000);
    return () => window.clearInterval(timer);
  }, [syncing, reload]);
  return { feeds, reload };
}

export const ReloadFeeds = createContext<() => Promise<void>>(async () => {});

/** act → toast → reload of the feeds, with `pending` covering all of it. */
export function useFeedAct() {
  const reload = useContext(ReloadFeeds);
  const [pending, startTransition] = useTransition();
  const act = <T extends { message: string }>(run: () => Promise<ActionResult<T>>) =>
    new Promise<void>((resolve) =>
      startTransition(async () => {
        const result = await run().catch(() => null);
        if (!result) toast.error(UNREACHABLE);
        else if (result.ok) toast.success(result.data.message);
        else toast.error(result.error);
        await reload();
        resolve();
      }),
    );
  return { act, pending };
}
