"use client";

import { Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
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
  const router = useRouter();
  const [editing, setEditing] = useState(false);

  const remove = async () => {
    const result = await deleteLeadAction({ leadId });
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    toast.success(result.data.message);
    router.replace("/leads");
  };

  return (
    <>
      <Button variant="secondary" onClick={() => setEditing(true)}>
        <Pencil className="size-4" aria-hidden />
        Edit
      </Button>
      <LeadFormDialog
        open={editing}
        onOpenChange={setEditing}
        leadId={leadId}
        initial={initial}
        stages={[]}
        limits={limits}
      />
      <ConfirmDialog
        trigger={
          <Button variant="secondary" className="text-red-600 hover:bg-red-50">
            <Trash2 className="size-4" aria-hidden />
            Delete
          </Button>
        }
        icon={<Trash2 className="size-5" aria-hidden />}
        title={`Delete “${leadName}”?`}
        description="The lead and its notes and metadata are removed for good. Integrations that still hold its id get 404 for it. This cannot be undone."
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        onConfirm={remove}
      />
    </>
  );
}
