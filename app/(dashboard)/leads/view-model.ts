import type { Moment } from "@/components/ui/moment-cell";
import { formatMoment } from "@/lib/platform/format/date-time";
import { leadDisplayName } from "@/lib/leads/display";
import type { Lead } from "@/lib/leads/model";
import { LEAD_LIMITS } from "@/lib/leads/schemas";

/* What crosses to the browser for a lead in the table and on the board: display fields only. */

export type StageOption = { key: string; label: string };

export type LeadCardView = {
  id: string;
  displayName: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  stage: string;
  created: Moment;
  /** ISO instant: the board keeps a moved card in created order. */
  createdAt: string;
};

export function leadCardView(lead: Lead, timezone: string): LeadCardView {
  return {
    id: lead.id,
    displayName: leadDisplayName(lead),
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    company: lead.company,
    stage: lead.stage,
    created: formatMoment(lead.createdAt, timezone),
    createdAt: lead.createdAt.toISOString(),
  };
}

/** For the lead form's maxLength attributes (server components pass it down). */
export const LEAD_FORM_LIMITS = {
  name: LEAD_LIMITS.name,
  email: LEAD_LIMITS.email,
  phone: LEAD_LIMITS.phone,
  company: LEAD_LIMITS.company,
  notes: LEAD_LIMITS.notes,
};
