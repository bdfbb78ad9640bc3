import { Badge } from "@/components/ui/badge";

/** A key's scopes as badges, as the keys table, the new key's summary and the recommendations show them. */
export function ScopeBadges({
  scopes,
  className = "flex flex-wrap gap-1",
}: {
  scopes: readonly string[];
  className?: string;
}) {
  return (
    <span className={className}>
      {scopes.map((scope) => (
        <Badge key={scope} tone="indigo" mono>
          {scope}
        </Badge>
      ))}
    </span>
  );
}
