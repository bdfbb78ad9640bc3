/*
 * A line from the system in the chat's transcript ("You asked to talk to a person…"), centred and quiet.
 * The hosted chat and the settings preview draw it with this one component. Line breaks are kept: the
 * handoff note puts the team's usual reply time on a line of its own.
 */
export function SystemNote({ text }: { text: string }) {
  return (
    <p
      className={
        "max-w-[90%] min-w-0 rounded-xl bg-zinc-100 px-3 py-1.5 text-center text-xs " +
        "leading-relaxed whitespace-pre-line text-zinc-600 wrap-anywhere"
      }
    >
      <span className="sr-only">Note: </span>
      {text}
    </p>
  );
}
