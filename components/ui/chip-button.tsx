import { cn } from "./cn";

/** A small pill that shows whether its choice is selected (aria-pressed), for presets and quick picks. */
export function ChipButton({
  selected,
  className,
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { selected: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      className={cn(
        "rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset transition-colors",
        selected
          ? "bg-indigo-50 text-indigo-700 ring-indigo-300"
          : "bg-white text-zinc-600 ring-zinc-300 hover:bg-zinc-50",
        className,
      )}
      {...props}
    />
  );
}
