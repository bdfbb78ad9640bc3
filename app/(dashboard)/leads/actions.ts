"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction, fail, formTexts, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import type { SessionContext } from "@/lib/auth/session";
import { createLead } from "@/lib/leads/create";
import { deleteLead } from "@/lib/leads/delete";
import type { LeadContext, LeadWriteResult } from "@/lib/leads/model";
import { AT_LEAST_ONE, createLeadSchema, updateLeadSchema } from "@/lib/leads/schemas";
import { changeLeadStage, updateLead } from "@/lib/leads/update";
import { parseWith, type FieldError } from "@/lib/api/validation";

/*
 * Server actions of Leads. defineAction checks the session and the role (owners and admins write);
 * the lead rules are lib/leads' schemas and domain functions, the same the public API runs.
 */

const leadContext = ({ account, user }: SessionContext): LeadContext => ({
  accountId: account.id,
  actor: { type: "user", userId: user.id },
});

const EDITABLE = ["name", "email", "phone", "company", "notes"] as const;
const leadForm = z.object({ leadId: z.string().optional(), ...formTexts(EDITABLE), stage: z.string().optional() });

const DASHBOARD_MESSAGES: Record<string, string> = {
  [AT_LEAST_ONE]: "Enter at least a name, an email or a phone number.",
};

function fieldFailure(details: FieldError[]) {
  return fail(
    CHECK_FIELDS,
    Object.fromEntries(
      details.map((detail) => [detail.field.split(".")[0], DASHBOARD_MESSAGES[detail.message] ?? detail.message]),
    ),
  );
}

function writeFailure(result: Exclude<LeadWriteResult, { ok: true }>) {
  switch (result.code) {
    case "invalid":
      return fieldFailure(result.details);
    case "exists":
      return fail(CHECK_FIELDS, { email: "Another lead already has this email." });
    case "not_found":
      return fail("This lead no longer exists.");
  }
}

function revalidateLeads(id?: string) {
  revalidatePath("/leads");
  if (id) revalidatePath(`/leads/${id}`);
}

export const createLeadAction = defineAction({ role: "manager", input: leadForm }, async (values, context) => {
  const parsed = parseWith(createLeadSchema, {
    ...Object.fromEntries(EDITABLE.map((field) => [field, values[field]])),
    stage: values.stage || null,
  });
  if (!parsed.ok) return fieldFailure(parsed.details);
  const result = await createLead(leadContext(context), parsed.value);
  if (!result.ok) return writeFailure(result);
  revalidateLeads();
  return ok({ id: result.lead.id, message: "Lead created." });
});

export const updateLeadAction = defineAction(
  { role: "manager", input: leadForm.extend({ leadId: z.string() }) },
  async (values, context) => {
    // Only the form's fields: a cleared field is sent as "" and clears the value.
    const parsed = parseWith(updateLeadSchema, Object.fromEntries(EDITABLE.map((field) => [field, values[field]])));
    if (!parsed.ok) return fieldFailure(parsed.details);
    const result = await updateLead(leadContext(context), values.leadId, parsed.value);
    if (!result.ok) return writeFailure(result);
    revalidateLeads(values.leadId);
    return ok({ id: result.lead.id, message: "Lead saved." });
  },
);

export const changeLeadStageAction = defineAction(
  { role: "manager", input: z.object({ leadId: z.string(), stage: z.string().min(1) }) },
  async ({ leadId, stage }, context) => {
    const result = await changeLeadStage(leadContext(context), leadId, stage);
    if (!result.ok)
      return result.code === "invalid" ? fail("That stage no longer exists. Reload the page.") : writeFailure(result);
    revalidateLeads(leadId);
    return ok({ id: result.lead.id, stage: result.lead.stage });
  },
);

export const deleteLeadAction = defineAction(
  { role: "manager", input: z.object({ leadId: z.string() }) },
  async ({ leadId }, context) => {
    const result = await deleteLead(leadContext(context), leadId);
    if (!result.ok) return fail("This lead no longer exists.");
    // No revalidation: it would re-render the lead's page, now a 404, before the client leaves for /leads
    // (a dynamic page, fetched fresh on that navigation).
    return ok({ message: `Deleted “${result.name}”.` });
  },
);
