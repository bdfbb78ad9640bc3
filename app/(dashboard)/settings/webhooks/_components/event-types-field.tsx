"use client";

import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { ALL_EVENT_TYPES } from "@/lib/webhook-subscriptions/catalogue";
import { EVENT_TYPE_DESCRIPTIONS, EVENT_TYPE_GROUPS } from "../view-model";

/*
 * The event types as checkboxes grouped by resource. "All events" ("*") and a group's "All lead events"
 * ("lead.*") also cover types added later, so while one is ticked the types it covers show ticked and
 * locked, and only the wildcard is sent.
 */
export function EventTypesField({
  value,
  onChange,
  error,
}: {
  value: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
  error?: string;
}) {
  const id = useId();
  const all = value.has(ALL_EVENT_TYPES);

  const set = (entry: string, checked: boolean, covered: readonly string[] = []) => {
    const next = new Set(value);
    if (checked) {
      next.add(entry);
      for (const type of covered) next.delete(type);
    } else next.delete(entry);
    onChange(next);
  };

  return (
    <fieldset aria-describedby={error ? `${id}-error` : `${id}-hint`} className="space-y-3">
      <legend className="text-sm font-medium text-zinc-800">Event types</legend>
      <Option
        name="All events"
        description="Everything in the catalogue, including types added later."
        value={ALL_EVENT_TYPES}
        checked={all}
        onChange={(checked) => set(ALL_EVENT_TYPES, checked, [...value])}
        strong
      />
      <div className="grid items-start gap-3 sm:grid-cols-2">
        {EVENT_TYPE_GROUPS.map((group) => {
          const groupAll = all || value.has(group.wildcard);
          return (
            <div key={group.key} className={cn("rounded-lg p-3 ring-1 ring-inset ring-zinc-200", all && "opacity-60")}>
              <p className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{group.title}</p>
              <div className="space-y-1.5">
                <Option
                  name={group.all}
                  value={group.wildcard}
                  checked={groupAll}
                  disabled={all}
                  onChange={(checked) => set(group.wildcard, checked, group.types)}
                />
                {group.types.map((type) => (
                  <Option
                    key={type}
                    name={type}
                    mono
                    description={EVENT_TYPE_DESCRIPTIONS[type]}
                    value={type}
                    checked={groupAll || value.has(type)}
                    disabled={groupAll}
                    onChange={(checked) => set(type, checked)}
                  />
                ))}
              </div>
            </div>
          );
        })}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
          Choose what this URL is told about. A notification is sent once per subscription, whichever boxes cover it.
        </p>
      )}
    </fieldset>
  );
}

function Option(props: {
  name: string;
  description?: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  mono?: boolean;
  strong?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  // A locked box is covered by a wildcard that is sent instead, so it is not submitted itself.
  const submitted = props.checked && !props.disabled;
  return (
    <label className={cn("flex items-start gap-2.5 text-sm", props.disabled ? "cursor-default" : "cursor-pointer")}>
      <input
        type="checkbox"
        name={submitted ? "eventTypes" : undefined}
        value={props.value}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
        aria-labelledby={`${id}-name`}
        aria-describedby={props.description ? `${id}-description` : undefined}
        className="mt-0.5 size-4 shrink-0 rounded accent-indigo-600"
      />
      <span className="min-w-0">
        <span
          id={`${id}-name`}
          className={cn(
            "block",
            props.mono ? "font-mono text-xs leading-5 text-zinc-900" : "text-zinc-900",
            props.strong && "font-medium",
          )}
        >
          {props.name}
        </span>
        {props.description ? (
          <span id={`${id}-description`} className="block text-xs text-zinc-500">
            {props.description}
          </span>
        ) : null}
      </span>
    </label>
  );
}
