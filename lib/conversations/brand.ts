/*
 * The chat's brand colour and the text drawn on it (docs/chat-widget.md, "Branding"). Pure, so the chat
 * page and the settings preview compute the same colours. The owner picks any colour; the text on it is
 * chosen here so it always meets WCAG AA for normal text (4.5:1), which one of white and black always does.
 */

/** The chat's colour when the owner has set none (Tailwind's indigo-600). */
export const DEFAULT_BRAND_COLOR = "#4f46e5";
/** AA for normal-size text. */
export const MIN_TEXT_CONTRAST = 4.5;
/** Tried in this order: white, the app's near-black (zinc-900), then black, which reaches AA where both fail. */
const TEXT_COLORS = ["#ffffff", "#18181b", "#000000"] as const;

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** "#4F46E5", "4f46e5" or "#abc" as "#4f46e5" / "#aabbcc"; null when it is not such a colour. */
export function normaliseHexColor(value: string): string | null {
  const match = HEX.exec(value.trim());
  if (!match) return null;
  const digits = match[1]!.toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
}

/** WCAG 2 relative luminance of "#rrggbb". */
export function relativeLuminance(hex: string): number {
  const channel = (index: number) => {
    const value = parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two "#rrggbb" colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The text colour for a background: the first of white, near-black and black that reaches AA. */
export function readableTextColor(background: string): string {
  return TEXT_COLORS.find((text) => contrastRatio(background, text) >= MIN_TEXT_CONTRAST) ?? "#000000";
}

/** WCAG's minimum for a focus indicator against what is next to it (here the chat's white). */
const MIN_UI_CONTRAST = 3;

/** `focus`: the brand colour for focus rings on white, or near-black where the colour is too light for one. */
export type BrandColors = { background: string; text: string; focus: string };

/** The stored colour (or the default) and its text colour; an unreadable stored value falls back to the default. */
export function brandColors(stored: string | null | undefined): BrandColors {
  const background = normaliseHexColor(stored ?? "") ?? DEFAULT_BRAND_COLOR;
  const focus = contrastRatio(background, "#ffffff") >= MIN_UI_CONTRAST ? background : "#18181b";
  return { background, text: readableTextColor(background), focus };
}
