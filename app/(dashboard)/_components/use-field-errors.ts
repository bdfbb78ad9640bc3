"use client";

import { useState } from "react";
import { firstFieldErrors, type ActionResult } from "@/lib/actions/result";

/**
 * The first error per field of a controlled form's last answer. A field's error stays until the user
 * changes that field; a new answer from the server starts afresh. `changed(field, set)` is an input's
 * onChange that stores the value and marks the field edited; `bind(field, value, set)` gives a Field its
 * name, value, onChange and error.
 */
export function useFieldErrors<F extends string>(answer: ActionResult<unknown> | null) {
  const [edited, setEdited] = useState<{ answer: ActionResult<unknown> | null; fields: ReadonlySet<F> }>({
    answer,
    fields: new Set(),
  });
  const editedFields = edited.answer === answer ? edited.fields : new Set<F>();
  const markEdited = (field: F) => setEdited({ answer, fields: new Set([...editedFields, field]) });
  const errors = Object.fromEntries(
    Object.entries(firstFieldErrors(answer)).filter(([field]) => !editedFields.has(field as F)),
  ) as Partial<Record<F, string>>;
  const changed =
    (field: F, set: (value: string) => void) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      set(event.target.value);
      markEdited(field);
    };
  const bind = (field: F, value: string, set: (value: string) => void) => ({
    name: field,
    value,
    onChange: changed(field, set),
    error: errors[field],
  });
  return { errors, markEdited, changed, bind };
}
