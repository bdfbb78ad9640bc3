"use client";

import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import Link from "next/link";
import { useActionState, useEffect, useOptimistic, useRef, useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { firstFieldErrors, formError, type ActionResult } from "@/lib/actions/result";
import { leadCountLabel } from "@/lib/leads/display";
import { STAGE_LABEL_MAX } from "@/lib/leads/pipeline-rules";
import { addStageAction, moveStageAction } from "../actions";
import { RemoveStageButton, RenameStageButton, type StageRowView } from "./stage-dialogs";

type Move = { key: string; direction: "up" | "down" };

function applyMove(stages: StageRowView[], { key, direction }: Move): StageRowView[] {
  const index = stages.findIndex((stage) => stage.key === key);
  const target = direction === "up" ? index - 1 : index + 1;
  if (index === -1 || target < 0 || target >= stages.length) return stages;
  const next = [...stages];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

export function PipelineEditor({
  stages,
  canManage,
  maxStages,
  countCap,
}: {
  stages: StageRowView[];
  canManage: boolean;
  maxStages: number;
  countCap: number;
}) {
  const [shown, addMove] = useOptimistic(stages, applyMove);
  // The new order shows at once; "Saving…" says it is not stored yet (leaving the page now would lose it).
  const [saving, startSaving] = useTransition();
  // After a move the list re-orders; keep keyboard focus on the button that was pressed (or its twin at an end).
  const [focusAfterMove, setFocusAfterMove] = useState<Move | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!focusAfterMove) return;
    const buttons = (direction: string) =>
      listRef.current?.querySelector<HTMLButtonElement>(
        `[data-stage="${CSS.escape(focusAfterMove.key)}"][data-move="${direction}"]`,
      );
    const preferred = buttons(focusAfterMove.direction);
    const other = buttons(focusAfterMove.direction === "up" ? "down" : "up");
    (preferred && !preferred.disabled ? preferred : other)?.focus();
  }, [shown, focusAfterMove]);

  const move = (key: string, direction: "up" | "down") => {
    setFocusAfterMove({ key, direction });
    startSaving(async () => {
      addMove({ key, direction });
      const result = await moveStageAction({ key, direction });
      if (!result.ok) toast.error(result.error);
    });
  };

  return (
    <div className="space-y-6">
      <section
        aria-labelledby="stages-heading"
        className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-zinc-200"
      >
        <div className="flex items-center justify-between border-b border-zinc-100 px-5 py-3">
          <h2 id="stages-heading" className="text-sm font-semibold text-zinc-900">
            Stages
          </h2>
          <p className="text-xs text-zinc-500" aria-live="polite">
            {saving ? "Saving…" : `${shown.length} of ${maxStages}`}
          </p>
        </div>
        <ol ref={listRef} aria-label="Stages" aria-busy={saving} className="divide-y divide-zinc-100">
          {shown.map((stage, index) => (
            <li key={stage.key} className="flex items-center gap-4 px-5 py-3">
              <span
                aria-hidden
                className={
                  "flex size-7 shrink-0 items-center justify-center rounded-full " +
                  "bg-zinc-100 text-xs font-semibold text-zinc-600 tabular-nums"
                }
              >
                {index + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-zinc-900">{stage.label}</p>
                <p className="mt-0.5 text-xs text-zinc-500">
                  <code className="font-mono">{stage.key}</code>
                  <span aria-hidden> · </span>
                  {stage.count > 0 ? (
                    <Link
                      href={`/leads?stage=${encodeURIComponent(stage.key)}`}
                      className="hover:text-indigo-600 hover:underline"
                    >
                      {leadCountLabel(stage.count, countCap)}
                    </Link>
                  ) : (
                    "no leads"
                  )}
                  {index === 0 ? (
                    <span className="ml-1.5 rounded bg-indigo-50 px-1.5 py-0.5 font-medium text-indigo-700">
                      default for new leads
                    </span>
                  ) : null}
                </p>
              </div>
              {canManage ? (
                <div className="-mr-2 flex shrink-0 items-center gap-0.5">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Move ${stage.label} up`}
                    title="Move up"
                    disabled={index === 0}
                    data-stage={stage.key}
                    data-move="up"
                    onClick={() => move(stage.key, "up")}
                  >
                    <ArrowUp className="size-4" aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Move ${stage.label} down`}
                    title="Move down"
                    disabled={index === shown.length - 1}
                    data-stage={stage.key}
                    data-move="down"
                    onClick={() => move(stage.key, "down")}
                  >
                    <ArrowDown className="size-4" aria-hidden />
                  </Button>
                  <RenameStageButton stage={stage} />
                  <RemoveStageButton stage={stage} countCap={countCap} onlyStage={shown.length === 1} />
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      {canManage ? <AddStageForm full={shown.length >= maxStages} maxStages={maxStages} /> : null}
    </div>
  );
}

function AddStageForm({ full, maxStages }: { full: boolean; maxStages: number }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [result, submit, pending] = useActionState<ActionResult<{ message: string }> | null, FormData>(
    (_previous, form) => addStageAction(form),
    null,
  );
  useEffect(() => {
    if (!result?.ok) return;
    toast.success(result.data.message);
    formRef.current?.reset();
  }, [result]);
  const error = firstFieldErrors(result).label ?? formError(result);
  return (
    <form ref={formRef} action={submit} noValidate className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200">
      <h2 className="text-sm font-semibold text-zinc-900">Add a stage</h2>
      <p className="mt-1 text-sm text-zinc-600">
        It is added at the end; move it where it belongs. Its key is made from the name.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          label="Stage name"
          name="label"
          className="flex-1"
          placeholder="e.g. Proposal sent"
          maxLength={STAGE_LABEL_MAX}
          autoComplete="off"
          disabled={full}
          error={error}
          hint={full ? `A pipeline has at most ${maxStages} stages.` : undefined}
        />
        <Button type="submit" disabled={pending || full} className="sm:mt-6.5">
          <Plus className="size-4" aria-hidden />
          {pending ? "Adding…" : "Add stage"}
        </Button>
      </div>
    </form>
  );
}
