import { Badge } from "@/components/ui/badge";

export function StatusBadge({ status }: { status: number }) {
  const tone = status >= 500 ? "red" : status >= 400 ? "amber" : status >= 200 && status < 300 ? "green" : "neutral";
  return (
    <Badge tone={tone} mono>
      {status}
    </Badge>
  );
}
