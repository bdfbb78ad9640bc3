"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, ok } from "@/lib/actions/action";
import { changeTimeZone } from "@/lib/accounts/time-zone";

/* Settings → Account. Owners and admins only (defineAction); the rules live in lib/accounts/time-zone.ts. */

const timeZoneInput = z.object({ timezone: z.string().trim().min(1, "Choose a time zone.").max(64) });

export const changeTimeZoneAction = defineAction({ role: "manager", input: timeZoneInput }, async (input, session) => {
  const result = await changeTimeZone(session.account.id, session.user, input.timezone);
  if (!result.ok) return fail(result.message, { timezone: [result.message] });
  // Every page shows times in the account's zone.
  if (result.changed) revalidatePath("/", "layout");
  const message = result.changed
    ? `Time zone changed to ${result.timeZone}.`
    : `Nothing changed: ${result.timeZone} is the current time zone.`;
  return ok({ timeZone: result.timeZone, message });
});
