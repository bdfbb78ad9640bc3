import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, requireSession } from "@/lib/auth/session";
import { listPipelineStages, MAX_STAGES, stageLeadCounts } from "@/lib/leads/pipeline";
import { PipelineEditor } from "./_components/pipeline-editor";
import { ReadOnlyNote } from "@/components/ui/read-only-note";

export const metadata: Metadata = { title: "Pipeline" };

const COUNT_CAP = 1_000;

export default async function PipelinePage() {
  const context = await requireSession();
  const manager = canManage(context);
  const [stages, counts] = await Promise.all([
    listPipelineStages(context.account.id),
    stageLeadCounts(context.account.id, COUNT_CAP),
  ]);
  return (
    <>
      <PageHeader
        title="Pipeline"
        description={
          "The stages a lead moves through, in order. New leads start in the first stage unless they " +
          "name another. Renaming keeps a stage's key, so integrations keep working."
        }
      />
      {manager ? null : <ReadOnlyNote>You can view the pipeline. Only owners and admins can change it.</ReadOnlyNote>}
      <PipelineEditor
        stages={stages.map((stage) => ({ key: stage.key, label: stage.label, count: counts.get(stage.key) ?? 0 }))}
        canManage={manager}
        maxStages={MAX_STAGES}
        countCap={COUNT_CAP}
      />
    </>
  );
}
