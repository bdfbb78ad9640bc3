"use server";

import { z } from "zod";
import { defineAction, ok } from "@/lib/actions/action";
import { rotateFeedToken } from "@/lib/events/calendar-feed-token";

/*
 * Server actions of Events → Calendar feeds. defineAction checks the session and the role (owners and
 * admins rotate); the token belongs to the session's account.
 */

/**
 * No revalidatePath: the page shows the returned URL at once, and a refresh would only read it again
 * (recording another view of it).
 */
export const rotateFeedUrlAction = defineAction({ role: "manager", input: z.object({}) }, async (_input, context) => {
  return ok({ url: await rotateFeedToken(context) });
});
