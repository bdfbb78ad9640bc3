/*
 * SQL text with numbered parameters, written where the values are used (docs/architecture.md, "Data
 * access"). No positional parameter ($1, $2 …) is ever counted by hand:
 *
 *   sql`SELECT … WHERE id = ${id}::uuid AND ${fragment}`   → { text: "… $1::uuid AND … $2 …", values }
 *
 * - A value interpolated into `sql` becomes the next parameter; a fragment (another `sql`) is spliced in
 *   and its parameters renumbered. `param(value, cast)` adds a cast and, used twice, is one parameter.
 * - `raw(text)` splices trusted SQL (identifiers, snippets built by our own helpers) as it is.
 * - A prepared statement (`pool.query({ name, text, values })`) needs the same text for every call:
 *   `placeholders<T>()` gives one named placeholder per key of T. They are strings, so SQL-building
 *   helpers that return strings can carry them, and each name is one parameter wherever it appears.
 *   `statement<T>(fragment)` numbers them once (at module load) and `values(record)` lays out a record
 *   of type T in that order, per call.
 * No server-only marker: the webhook benchmark's reference server uses it too.
 */

const PARAM = Symbol("sql parameter");

/** A named placeholder, `$<name>` in the text until the statement is numbered. */
export type Placeholder = string & { readonly [PARAM]?: "placeholder" };

type Param = { readonly [PARAM]: true; readonly value: unknown; readonly cast?: string };
type Raw = { readonly raw: string };
type Part = string | Raw | Param | Sql;

// `$<` cannot start anything in PostgreSQL's syntax, so a token never collides with real SQL.
const TOKEN = /\$<([^<>\s]+)>/g;
const token = (name: string) => `$<${name}>`;

export class Sql {
  private compiled?: { text: string; slots: Slot[] };

  constructor(private readonly parts: readonly Part[]) {}

  /** The text with $1…$n, numbered in order of first appearance. */
  get text(): string {
    return this.compile().text;
  }

  /** The values for `text`; only for statements without named placeholders (see `statement`). */
  get values(): unknown[] {
    return this.bind({});
  }

  /** The values for `text`, named placeholders taken from `record`. */
  bind(record: Readonly<Record<string, unknown>>): unknown[] {
    return this.compile().slots.map((slot) => {
      if ("value" in slot) return slot.value;
      if (!Object.hasOwn(record, slot.name)) throw new Error(`sql: no value for placeholder "${slot.name}"`);
      return record[slot.name];
    });
  }

  /** Embedding a fragment in a plain string would drop its parameters. */
  toString(): string {
    throw new Error("sql: a fragment cannot be used as a string; embed it with sql`…${fragment}…`");
  }

  private compile(): { text: string; slots: Slot[] } {
    if (this.compiled) return this.compiled;
    const params = new Map<Param, string>();
    const tokenized = render(this, params);
    const byToken = new Map<string, number>();
    const slots: Slot[] = [];
    const values = new Map([...params].map(([param, name]) => [name, param.value]));
    const text = tokenized.replace(TOKEN, (_, name: string) => {
      let index = byToken.get(name);
      if (index === undefined) {
        slots.push(values.has(name) ? { value: values.get(name) } : { name });
        index = slots.length;
        byToken.set(name, index);
      }
      return `$${index}`;
    });
    this.compiled = { text, slots };
    return this.compiled;
  }

  /** @internal */
  static partsOf(fragment: Sql): readonly Part[] {
    return fragment.parts;
  }
}

type Slot = { value: unknown } | { name: string };

// Values become tokens `$<#k>` (a name no placeholder can take); one Param object is one token.
function render(fragment: Sql, params: Map<Param, string>): string {
  let text = "";
  for (const part of Sql.partsOf(fragment)) {
    if (typeof part === "string") text += part;
    else if (part instanceof Sql) text += render(part, params);
    else if ("raw" in part) text += part.raw;
    else {
      let name = params.get(part);
      if (name === undefined) {
        name = `#${params.size}`;
        params.set(part, name);
      }
      text += token(name) + (part.cast ? `::${part.cast}` : "");
    }
  }
  return text;
}

const isParam = (value: unknown): value is Param => typeof value === "object" && value !== null && PARAM in value;
const isRaw = (value: unknown): value is Raw =>
  typeof value === "object" &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as Raw).raw === "string";
const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === "string" && /^\$<[^<>\s]+>$/.test(value) && !value.startsWith("$<#");

/** The tag: literal text, values (as parameters), fragments, raw snippets and placeholders. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const parts: Part[] = [strings[0]];
  values.forEach((value, index) => {
    if (value instanceof Sql || isParam(value) || isRaw(value)) parts.push(value);
    else if (isPlaceholder(value)) parts.push(value);
    else parts.push(param(value));
    parts.push(strings[index + 1]);
  });
  return new Sql(parts);
}

/** A parameter with an optional cast (`$n::cast`); the same object used twice is one parameter. */
export function param(value: unknown, cast?: string): Param {
  return { [PARAM]: true, value, cast };
}

/** Trusted SQL spliced as it is: never user input. */
export function raw(text: string): Raw {
  return { raw: text };
}

/** Fragments joined by a separator (", " unless told). */
export function join(fragments: readonly Sql[], separator = ", "): Sql {
  const parts: Part[] = [];
  fragments.forEach((fragment, index) => {
    if (index > 0) parts.push(separator);
    parts.push(fragment);
  });
  return new Sql(parts);
}

/** One named placeholder per key of T: `p.account` is `$<account>` until `statement` numbers it. */
export function placeholders<T extends object>(): { readonly [K in keyof T & string]-?: Placeholder } {
  return new Proxy({} as { readonly [K in keyof T & string]-?: Placeholder }, {
    get: (_, name) => {
      if (typeof name !== "string" || !/^[A-Za-z_]\w*$/.test(name)) {
        throw new Error(`sql: bad placeholder name ${String(name)}`);
      }
      return token(name);
    },
  });
}

export type Statement<T> = { readonly text: string; values(record: T): unknown[] };

/**
 * A statement of fixed text (e.g. prepared by name): numbered once; `values` lays out a record of T.
 * The text may be a fragment or a string built by helpers that carry placeholders.
 */
export function statement<T extends object>(fragment: Sql | string): Statement<T> {
  const compiled = typeof fragment === "string" ? new Sql([fragment]) : fragment;
  const text = compiled.text;
  return { text, values: (record) => compiled.bind(record as Record<string, unknown>) };
}
