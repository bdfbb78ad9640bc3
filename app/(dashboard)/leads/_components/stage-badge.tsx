import { Badge, type BadgeTone } from "@/components/ui/badge";

/*
 * A stage's badge. Stages are the account's own, so the colour comes from the stage's place in the
 * pipeline (first stages neutral, later ones warmer); won/lost keep their conventional colours.
 */
const CYCLE: BadgeTone[] = ["neutral", "indigo", "amber", "indigo", "amber"];

export function stageTone(key: string, index: number): BadgeTone {
  if (key === "won") return "green";
  if (key === "lost") return "red";
  return CYCLE[Math.max(index, 0) % CYCLE.length];
}

export function StageBadge({ stageKey, label, index }: { stageKey: string; label: string; index: number }) {
  return (
    <Badge tone={stageTone(stageKey, index)} dot>
      {label}
    </Badge>
  );
}
