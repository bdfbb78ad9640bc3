"use client";

import { Pencil } from "lucide-react";
import { DeleteAndReturn } from "@/app/(dashboard)/_components/delete-and-return";
import { DialogButton } from "@/app/(dashboard)/_components/form-dialog";
import { deleteLeadAction } from "../../actions";
import { LeadFormDialog, type LeadFormLimits, type LeadFormValues } from "../../_components/lead-form-dialog";

/** Edit and Delete for owners and admins. */
export function LeadActions({
  leadId,
  leadName,
  initial,
  limits,
}: {
  leadId: string;
  leadName: string;
  initial: LeadFormValues;
  limits: LeadFormLimits;
}) {
  return (
    <>
      <DialogButton variant="secondary" label="Edit" icon={<Pencil className="size-4" aria-hidden />}>
        {(dialog) => <LeadFormDialog {...dialog} leadId={leadId} initial={initial} stages={[]} limits={limits} />}
      </DialogButton>
      <DeleteAndReturn
        title={`Delete “${leadName}”?`}
        description={
          "The lead and its notes and metadata are removed for good. " +
          "Integrations that still hold its id get 404 for it. This cannot be undone."
        }
        remove={() => deleteLeadAction({ leadId })}
        returnTo="/leads"
      />
    </>
  );
}
