import { useId } from "react";
import { cn } from "./cn";

export const inputClasses =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm ring-1 ring-inset " +
  "ring-zinc-300 placeholder:text-zinc-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 " +
  "focus:outline-none disabled:bg-zinc-50 disabled:text-zinc-500 aria-invalid:ring-red-400";

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

type Framed = Labelling & { id?: string; className?: string };

/** A field component: `render` draws the control from its wiring and the props that are not the frame's. */
function labelled<P extends Framed>(render: (wiring: ControlWiring, props: Omit<P, keyof Framed>) => React.ReactNode) {
  return function LabelledField({ label, error, hint, id, className, ...props }: P) {
    return <Labelled {...{ label, error, hint, id, className }} control={(wiring) => render(wiring, props)} />;
  };
}

/** A labelled input with its hint and error wired up for assistive technology. */
export const Field = labelled<React.InputHTMLAttributes<HTMLInputElement> & Labelling>((wiring, props) => (
  <input {...wiring} className={inputClasses} {...props} />
));

/** A labelled textarea, wired up like Field. */
export const TextAreaField = labelled<React.TextareaHTMLAttributes<HTMLTextAreaElement> & Labelling>(
  (wiring, props) => <textarea {...wiring} className={inputClasses} {...props} />,
);

type SelectProps = React.SelectHTMLAttributes<HTMLSelectElement> & Labelling;

/** A labelled select over `[value, text]` options, wired up like Field. */
export const SelectField = labelled<SelectProps & { options: ReadonlyArray<readonly [string, string]> }>(
  (wiring, { options, ...props }) => (
    <select {...wiring} className={inputClasses} {...props}>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  ),
);
