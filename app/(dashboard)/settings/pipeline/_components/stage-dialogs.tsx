"use client";

import { Pencil, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useDialogFormAction } from "@/app/(dashboard)/_components/form-dialog";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button, buttonClasses } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogForm } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { stageInUseMessage } from "@/lib/leads/display";
import { STAGE_LABEL_MAX } from "@/lib/leads/pipeline-rules";
import { removeStageAction, renameStageAction } from "../actions";

export type StageRowView = { key: string; label: string; count: number };

function RenameForm({ stage, onDone }: { stage: StageRowView; onDone: () => void }) {
  const { submit, pending, field, formError } = useDialogFormAction(renameStageAction, { label: stage.label }, onDone);
  return (
    <DialogForm
      action={submit}
      hidden={{ key: stage.key }}
      error={formError}
      submitLabel="Save"
      pendingLabel="Saving…"
      pending={pending}
    >
      <Field
        label="Name"
        {...field("label")}
        maxLength={STAGE_LABEL_MAX}
        hint={
          <>
            Key <code className="font-mono">{stage.key}</code> stays the same.
          </>
        }
        autoComplete="off"
        autoFocus
        required
      />
    </DialogForm>
  );
}

export function RenameStageButton({ stage }: { stage: StageRowView }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Rename ${stage.label}`}
        title="Rename"
        onClick={() => setOpen(true)}
      >
        <Pencil className="size-4" aria-hidden />
      </Button>
      <DialogContent title={`Rename “${stage.label}”`} icon={<Pencil className="size-4" aria-hidden />} size="sm">
        {open ? <RenameForm stage={stage} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** Remove: refused up front for a stage that holds leads (the server refuses too, whatever this page shows). */
export function RemoveStageButton({
  stage,
  countCap,
  onlyStage,
}: {
  stage: StageRowView;
  countCap: number;
  onlyStage: boolean;
}) {
  const [blockedOpen, setBlockedOpen] = useState(false);
  const trigger = (onClick?: () => void) => (
    <Button
      variant="ghost"
      size="sm"
      aria-label={`Remove ${stage.label}`}
      title="Remove"
      className="text-zinc-500 hover:bg-red-50 hover:text-red-600"
      onClick={onClick}
    >
      <Trash2 className="size-4" aria-hidden />
    </Button>
  );
  if (stage.count > 0 || onlyStage) {
    const reason = onlyStage
      ? "A pipeline needs at least one stage. Add another stage first."
      : stageInUseMessage(stage.count, countCap);
    return (
      <Dialog open={blockedOpen} onOpenChange={setBlockedOpen}>
        {trigger(() => setBlockedOpen(true))}
        <DialogContent
          title={`“${stage.label}” cannot be removed`}
          description={reason}
          icon={<Trash2 className="size-4" aria-hidden />}
          size="sm"
        >
          <DialogFooter>
            {stage.count > 0 ? (
              <Link href={`/leads?stage=${encodeURIComponent(stage.key)}`} className={buttonClasses("secondary")}>
                Show these leads
              </Link>
            ) : null}
            <DialogClose asChild>
              <Button>OK</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    );
  }
  return (
    <ConfirmDialog
      trigger={trigger()}
      icon={<Trash2 className="size-5" aria-hidden />}
      title={`Remove “${stage.label}”?`}
      description="No lead is in this stage. Integrations that send its key get an unknown-stage error from now on."
      confirmLabel="Remove"
      pendingLabel="Removing…"
      onConfirm={async () => {
        const result = await removeStageAction({ key: stage.key });
        if (result.ok) toast.success(`Removed “${stage.label}”.`);
        else toast.error(result.error);
      }}
    />
  );
}
