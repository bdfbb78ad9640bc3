import { ArrowRight, CircleCheck, CircleDashed, CirclePause, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import type { Card, CardTone } from "./view-model";

const tones: Record<CardTone, { ring: string; icon: React.ReactNode; label: string }> = {
  healthy: {
    ring: "ring-zinc-200",
    icon: <CircleCheck className="size-4 text-emerald-600" aria-hidden />,
    label: "Healthy",
  },
  idle: {
    ring: "ring-zinc-200",
    icon: <CircleDashed className="size-4 text-zinc-400" aria-hidden />,
    label: "Waiting",
  },
  problem: {
    ring: "ring-amber-300 bg-amber-50/60",
    icon: <TriangleAlert className="size-4 text-amber-600" aria-hidden />,
    label: "Problem",
  },
  off: { ring: "ring-zinc-200", icon: <CirclePause className="size-4 text-zinc-500" aria-hidden />, label: "Off" },
};

/** One source, feed or subscription: its state, two facts, and the page to open. */
export function HealthCard({ card }: { card: Card }) {
  const tone = tones[card.tone];
  return (
    <li className={cn("flex min-w-0 flex-col rounded-xl bg-white p-4 break-words shadow-sm ring-1", tone.ring)}>
      <h3 className="truncate text-sm font-semibold text-zinc-900" title={card.title}>
        {card.title}
      </h3>
      <p className="mt-1 flex items-start gap-1.5 text-sm text-zinc-800">
        <span className="mt-0.5 shrink-0">{tone.icon}</span>
        <span>
          <span className="sr-only">{tone.label}: </span>
          {card.state}
        </span>
      </p>
      <ul className="mt-2 space-y-0.5 text-xs text-zinc-600">
        {card.facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      <Link
        href={card.link.href}
        className={cn(
          "mt-3 inline-flex items-center gap-1 self-start text-sm font-medium hover:underline",
          card.tone === "problem" ? "text-amber-800" : "text-indigo-700",
        )}
      >
        {card.link.label}
        <span className="sr-only">: {card.title}</span>
        <ArrowRight className="size-3.5" aria-hidden />
      </Link>
    </li>
  );
}

/** A section of cards under its heading, or what to do when there are none. */
export function CardSection({
  id,
  title,
  cards,
  empty,
}: {
  id: string;
  title: string;
  cards: Card[];
  empty: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-base font-semibold text-zinc-900">
        {title}
      </h2>
      {cards.length > 0 ? (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <HealthCard key={card.key} card={card} />
          ))}
        </ul>
      ) : (
        <div className="mt-3 rounded-xl border border-dashed border-zinc-300 p-4 text-sm text-zinc-600">{empty}</div>
      )}
    </section>
  );
}
