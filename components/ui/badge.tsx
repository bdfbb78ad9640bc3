import { cn } from "./cn";

export type BadgeTone = "neutral" | "indigo" | "green" | "amber" | "red";

const tones: Record<BadgeTone, { badge: string; dot: string }> = {
  neutral: { badge: "bg-zinc-100 text-zinc-700 ring-zinc-200", dot: "bg-zinc-400" },
  indigo: { badge: "bg-indigo-50 text-indigo-700 ring-indigo-200", dot: "bg-indigo-500" },
  green: { badge: "bg-emerald-50 text-emerald-700 ring-emerald-200", dot: "bg-emerald-500" },
  amber: { badge: "bg-amber-50 text-amber-800 ring-amber-200", dot: "bg-amber-500" },
  red: { badge: "bg-red-50 text-red-700 ring-red-200", dot: "bg-red-500" },
};

export type BadgeProps = React.HTMLAttributes<HTMLSpanElement> & {
  tone?: BadgeTone;
  /** Monospace text, for identifiers such as scope names. */
  mono?: boolean;
  /** A leading status dot. */
  dot?: boolean;
};

/** A small inline label: scopes, states, plan names. */
export function Badge({ tone = "neutral", mono, dot, className, children, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-md px-1.5 py-0.5 text-xs " +
          "font-medium whitespace-nowrap ring-1 ring-inset",
        mono && "font-mono text-[0.6875rem]",
        tones[tone].badge,
        className,
      )}
      {...props}
    >
      {dot ? <span aria-hidden className={cn("size-1.5 rounded-full", tones[tone].dot)} /> : null}
      {children}
    </span>
  );
}
