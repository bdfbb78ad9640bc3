"use server";

import { z } from "zod";
import { defineAction, fail, ok } from "@/lib/actions/action";
import { addFeed, deleteFeed, feedInputSchema, requestSync, setFeedPaused } from "@/lib/calendar-feeds/store";
import { rotateFeedToken } from "@/lib/events/calendar-feed-token";
import { feedRows } from "./feed-rows";

/*
 * Server actions of Events → Calendar feeds. defineAction checks the session and the role (owners and
 * admins rotate the feed URL and manage followed feeds); everything acts on the session's account.
 */

/**
 * No revalidatePath: the page shows the returned URL at once, and a refresh would only read it again
 * (recording another view of it).
 */
export const rotateFeedUrlAction = defineAction({ role: "manager", input: z.object({}) }, async (_input, context) => {
  return ok({ url: await rotateFeedToken(context) });
});

/** Follow a calendar: the URL's problem (scheme, private address, length…) is the `url` field's error. */
export const addCalendarFeedAction = defineAction(
  { role: "manager", input: feedInputSchema },
  async (input, context) => {
    const added = await addFeed(context, input);
    if (!added.ok) return fail(added.message, { url: added.message });
    return ok({ message: `Following “${input.name}”. Its first sync has started.` });
  },
);

const byId = z.object({ feedId: z.string() });

export const syncCalendarFeedAction = defineAction({ role: "manager", input: byId }, async ({ feedId }, context) => {
  const result = await requestSync(context, feedId);
  return result.ok ? ok({ message: "Sync started." }) : fail(result.message);
});

export const pauseCalendarFeedAction = defineAction(
  { role: "manager", input: byId.extend({ paused: z.boolean() }) },
  async ({ feedId, paused }, context) => {
    const result = await setFeedPaused(context, feedId, paused);
    if (!result.ok) return fail(result.message);
    return ok({ message: paused ? "Feed paused: it is not synced until you resume it." : "Feed resumed." });
  },
);

export const deleteCalendarFeedAction = defineAction(
  { role: "manager", input: byId.extend({ events: z.enum(["keep", "remove"]) }) },
  async ({ feedId, events }, context) => {
    const result = await deleteFeed(context, feedId, events);
    if (!result.ok) return fail(result.message);
    const count = `${result.events.toLocaleString("en-US")} ${result.events === 1 ? "event" : "events"}`;
    return ok({
      message: events === "remove" ? `Feed deleted with its ${count}.` : `Feed deleted; its ${count} stay as your own.`,
    });
  },
);

/**
 * The feeds as the section shows them. The section reloads itself with this rather than refreshing the
 * page, whose every render records a view of the secret feed URL in the audit log.
 */
export const listCalendarFeedsAction = defineAction({ role: "member", input: z.object({}) }, async (_input, context) =>
  ok(await feedRows(context)),
);
