import { Info } from "lucide-react";

/** Above a page a member may read but not change: what they can do, and who can do the rest. */
export function ReadOnlyNote({ children }: { children: React.ReactNode }) {
  return (
    <p className="mb-4 flex items-center gap-2 rounded-lg bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
      <Info className="size-4 shrink-0 text-zinc-500" aria-hidden />
      {children}
    </p>
  );
}
