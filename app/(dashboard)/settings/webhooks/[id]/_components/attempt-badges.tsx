import { Badge, type BadgeTone } from "@/components/ui/badge";

export const OUTCOMES: Record<string, { label: string; tone: BadgeTone }> = {
  succeeded: { label: "Delivered", tone: "green" },
  retry: { label: "Will retry", tone: "amber" },
  failed: { label: "Failed", tone: "red" },
  disabled: { label: "Failed, disabled", tone: "red" },
};

export function OutcomeBadge({ outcome }: { outcome: string }) {
  const badge = OUTCOMES[outcome] ?? { label: outcome, tone: "neutral" as const };
  return (
    <Badge tone={badge.tone} dot>
      {badge.label}
    </Badge>
  );
}

export function HttpStatus({ code }: { code: number | null }) {
  if (code === null) return <span className="text-zinc-500">No answer</span>;
  const tone: BadgeTone = code >= 200 && code < 300 ? "green" : code >= 500 ? "red" : "amber";
  return (
    <Badge tone={tone} mono>
      {code}
    </Badge>
  );
}
