"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import type { SessionContext } from "@/lib/auth/session";
import type { LeadContext } from "@/lib/leads/model";
import {
  addPipelineStage,
  movePipelineStage,
  removePipelineStage,
  renamePipelineStage,
  type PipelineEditResult,
} from "@/lib/leads/pipeline";

/* Settings → Pipeline. Owners and admins only (defineAction); the rules live in lib/leads/pipeline.ts. */

const context = ({ account, user }: SessionContext): LeadContext => ({
  accountId: account.id,
  actor: { type: "user", userId: user.id },
});

function answer(result: PipelineEditResult, message: string, field?: string) {
  if (!result.ok)
    return field && result.code === "invalid" ? fail(CHECK_FIELDS, { [field]: result.message }) : fail(result.message);
  revalidatePath("/settings/pipeline");
  revalidatePath("/leads");
  return ok({ message });
}

export const addStageAction = defineAction(
  { role: "manager", input: z.object({ label: z.string().default("") }) },
  async ({ label }, session) =>
    answer(await addPipelineStage(context(session), label), `Added “${label.trim()}”.`, "label"),
);

export const renameStageAction = defineAction(
  { role: "manager", input: z.object({ key: z.string(), label: z.string().default("") }) },
  async ({ key, label }, session) =>
    answer(await renamePipelineStage(context(session), key, label), "Stage renamed.", "label"),
);

export const moveStageAction = defineAction(
  { role: "manager", input: z.object({ key: z.string(), direction: z.enum(["up", "down"]) }) },
  async ({ key, direction }, session) =>
    answer(await movePipelineStage(context(session), key, direction), direction === "up" ? "Moved up." : "Moved down."),
);

export const removeStageAction = defineAction(
  { role: "manager", input: z.object({ key: z.string() }) },
  async ({ key }, session) => answer(await removePipelineStage(context(session), key), "Stage removed."),
);
