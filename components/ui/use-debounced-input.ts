import { useEffect, useRef, useState } from "react";

/*
 * A text or date input whose value is applied after a pause in typing, not on every key: a search that
 * reloads a list, a date typed digit by digit. `flush` applies at once (Enter, leaving the field).
 */
export function useDebouncedInput(initial: string, delayMs: number, apply: (value: string) => void) {
  const [value, setValue] = useState(initial);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (next: string) => {
    setValue(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => apply(next), delayMs);
  };
  const flush = () => {
    clearTimeout(timer.current);
    apply(value);
  };
  return { value, change, flush };
}
