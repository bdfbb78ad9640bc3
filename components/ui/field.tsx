import { useId } from "react";
import { cn } from "./cn";

export const inputClasses =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm ring-1 ring-inset ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-zinc-50 disabled:text-zinc-500 aria-invalid:ring-red-400";

type Labelling = { label: string; error?: string; hint?: React.ReactNode };
type ControlWiring = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/** A label, the control it names, and the control's hint and error, wired up for assistive technology. */
function Labelled({
  label,
  error,
  hint,
  id,
  className,
  control,
}: Labelling & { id?: string; className?: string; control: (wiring: ControlWiring) => React.ReactNode }) {
  const generated = useId();
  const controlId = id ?? generated;
  const describedBy = [hint ? `${controlId}-hint` : null, error ? `${controlId}-error` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={controlId} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      {control({
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {hint && !error ? (
        <p id={`${controlId}-hint`} className="text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${controlId}-error`} className="text-xs font-medium text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type FieldProps = React.InputHTMLAttributes<HTMLInputElement> & Labelling;

/** A labelled input with its hint and error wired up for assistive technology. */
export function Field({ label, error, hint, className, id, ...props }: FieldProps) {
  return (
    <Labelled
      {...{ label, error, hint, id, className }}
      control={(wiring) => <input {...wiring} className={inputClasses} {...props} />}
    />
  );
}

/** A labelled textarea, wired up like Field. */
export function TextAreaField({
  label,
  error,
  hint,
  className,
  id,
  ...props
}: React.TextareaHTMLAttributes<HTMLTextAreaElement> & Labelling) {
  return (
    <Labelled
      {...{ label, error, hint, id, className }}
      control={(wiring) => <textarea {...wiring} className={inputClasses} {...props} />}
    />
  );
}

/** A labelled select over `[value, text]` options, wired up like Field. */
export function SelectField({
  label,
  error,
  hint,
  className,
  id,
  options,
  ...props
}: React.SelectHTMLAttributes<HTMLSelectElement> & Labelling & { options: ReadonlyArray<readonly [string, string]> }) {
  return (
    <Labelled
      {...{ label, error, hint, id, className }}
      control={(wiring) => (
        <select {...wiring} className={inputClasses} {...props}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    />
  );
}
