import { CircleCheck, CircleDashed, CirclePause, TriangleAlert, type LucideIcon } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { Health } from "../../view-model";
import type { HealthNotice } from "../health";

const styles: Record<Health, { box: string; Icon: LucideIcon; icon: string }> = {
  healthy: { box: "bg-emerald-50 text-emerald-900 ring-emerald-200", Icon: CircleCheck, icon: "text-emerald-600" },
  new: { box: "bg-white text-zinc-800 ring-zinc-200", Icon: CircleDashed, icon: "text-zinc-400" },
  failing: { box: "bg-amber-50 text-amber-950 ring-amber-200", Icon: TriangleAlert, icon: "text-amber-600" },
  disabled: { box: "bg-zinc-100 text-zinc-800 ring-zinc-300", Icon: CirclePause, icon: "text-zinc-500" },
};

/**
 * The subscription's state at the top of its page: healthy, waiting, failing (with the last error) or disabled (why,
 * and how to re-enable).
 */
export function HealthNoticeCard({ notice }: { notice: HealthNotice }) {
  const style = styles[notice.health];
  return (
    <section
      aria-labelledby="subscription-health"
      role={notice.health === "failing" ? "alert" : undefined}
      className={cn("flex gap-3 rounded-xl px-5 py-4 shadow-sm ring-1 ring-inset", style.box)}
    >
      <div className="mt-0.5 shrink-0">
        <style.Icon className={cn("size-5", style.icon)} aria-hidden />
      </div>
      <div className="min-w-0 space-y-1 text-sm leading-6">
        <h2 id="subscription-health" className="font-semibold">
          {notice.title}
        </h2>
        {notice.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </section>
  );
}
