"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, formTexts, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import { saveWidgetSettings } from "@/lib/conversations/settings";
import type { CheckedWidgetSettings } from "@/lib/conversations/settings-input";

/* Settings → Chat widget. Owners and admins only (defineAction); the rules live in lib/conversations/settings.ts. */

const settingsInput = z.object(
  formTexts(["assistantName", "greeting", "allowedOrigins", "businessName", "logoUrl", "brandColor", "replyTime"]),
);

export type SavedWidgetSettings = CheckedWidgetSettings & { message: string };

export const saveChatWidgetSettingsAction = defineAction(
  { role: "manager", input: settingsInput },
  async (input, session) => {
    const result = await saveWidgetSettings({ accountId: session.account.id, actorUserId: session.user.id }, input);
    if (!result.ok) return fail(CHECK_FIELDS, result.problems);
    revalidatePath("/settings/chat-widget");
    const message =
      result.changed.length === 0 ? "Nothing changed: these are the current settings." : "Settings saved.";
    return ok<SavedWidgetSettings>({ ...result.settings, message });
  },
);
