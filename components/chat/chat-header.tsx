"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import type { BrandColors } from "@/lib/conversations/brand";

/*
 * The top of the chat: the logo (or the name's first letter), the business name, and below it the
 * assistant's name and what the chat is doing. The hosted chat and the settings preview both draw this
 * one component, so the preview shows exactly what visitors get. The logo is decoration beside the name
 * (empty alt); one that fails to load gives way to the letter.
 */

/** The header's status line while the assistant has the chat. */
export const ASSISTANT_STATUS = "Ask about upcoming events";

export function ChatHeader({
  businessName,
  assistantName,
  logoUrl,
  colors,
  status,
  heading = true,
  className,
}: {
  businessName: string;
  assistantName: string;
  logoUrl: string;
  colors: BrandColors;
  status: string;
  /** The hosted chat's title is its page's heading; the preview's is not. */
  heading?: boolean;
  className?: string;
}) {
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const title = businessName || assistantName;
  const subtitle = businessName && assistantName ? `${assistantName} · ${status}` : status;
  const Title = heading ? "h1" : "p";
  const showLogo = logoUrl !== "" && brokenLogo !== logoUrl;
  return (
    <header
      className={cn("flex shrink-0 items-center gap-3 py-3 pl-4", className)}
      style={{ backgroundColor: colors.background, color: colors.text }}
    >
      {showLogo ? (
        // eslint-disable-next-line @next/next/no-img-element -- an owner's image on another origin, shown as is
        <img
          src={logoUrl}
          alt=""
          referrerPolicy="no-referrer"
          onError={() => setBrokenLogo(logoUrl)}
          className="size-9 shrink-0 rounded-full bg-white object-contain p-0.5"
        />
      ) : (
        <span
          aria-hidden
          className={
            "flex size-9 shrink-0 items-center justify-center rounded-full text-sm " +
            "font-semibold uppercase ring-1 ring-current/30"
          }
        >
          {[...title.trim()][0] ?? "A"}
        </span>
      )}
      <div className="min-w-0">
        <Title className="truncate text-[0.9375rem] leading-tight font-semibold">{title}</Title>
        <p className="truncate text-xs">{subtitle}</p>
      </div>
    </header>
  );
}
