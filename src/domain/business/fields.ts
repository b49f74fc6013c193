import { FIRST_DAY, isBeforeFirstDay, isOffsetOutOfRange, LAST_DAY, resolveDate } from '../dates.ts';
import { closeDirections, echoed, echoedJson, isBlank, longerThan, unstorableIn } from '../text.ts';

// Reading one entry of a business file: each accessor checks a field, records a precise error
// naming the entry and the field when it is wrong, and returns a usable value so that reading
// carries on and every error in the file is reported at once.

export type Raw = Record<string, unknown>;

/**
 * Where an error sits in the file: the position of its section, of its entry in the section,
 * of its field in the entry, and so on down. Checks run in the reader's order (references only
 * once every entry is read), so the errors are sorted by this to come out in the file's.
 */
export type Place = readonly number[];

export function byPlace(a: Place, b: Place): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Where `key` is among the keys of `raw`; one that is not there (a required field left out) comes after them all. */
export function placeOf(raw: Raw, key: string): number {
  const keys = Object.keys(raw);
  const at = keys.indexOf(key);
  return at === -1 ? keys.length : at;
}

export class FileErrors {
  private readonly found: Array<{ at: Place; text: string }> = [];
  /** The first error of each field, by the field's name, for a form that shows it beside the field. */
  readonly byField: Record<string, string> = {};
  add(where: string, message: string, field?: string, at: Place = []): void {
    this.found.push({ at, text: `${where}: ${message}` });
    if (field && !(field in this.byField)) this.byField[field] = message;
  }
  /** Every error, in the file's order; errors at one place keep the order they were found in. */
  get list(): string[] {
    return [...this.found].sort((a, b) => byPlace(a.at, b.at)).map((e) => e.text);
  }
}

export function isObject(v: unknown): v is Raw {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** One entry (`work[3] "File VAT return"`) and the fields it may carry. */
export class Entry {
  constructor(
    readonly where: string,
    readonly raw: Raw,
    private readonly errors: FileErrors,
    readonly today: string,
    allowed: readonly string[],
    private readonly at: Place = [],
  ) {
    for (const key of Object.keys(raw)) {
      if (!allowed.includes(key)) this.fail(key, `unknown field; the fields are ${allowed.join(', ')}`);
    }
  }

  private readonly failed = new Set<string>();

  fail(field: string, message: string): void {
    this.failed.add(field);
    this.errors.add(field ? `${this.where}.${field}` : this.where, message, field, this.place(field));
  }

  /** Whether `field` was refused: the rules that lean on its value then say nothing of it. */
  refused(field: string): boolean {
    return this.failed.has(field);
  }

  /** Where `field` (`due`, `messages[2]`, `config.imap`) sits in the file; '' is the entry itself, before its fields. */
  place(field: string): Place {
    return [...this.at, field === '' ? -1 : placeOf(this.raw, field.split(/[.[]/)[0]!)];
  }

  has(field: string): boolean {
    return this.raw[field] !== undefined && this.raw[field] !== null;
  }

  text(field: string, opts: { required: true; max?: number }): string;
  text(field: string, opts?: { required?: false; max?: number }): string | null;
  text(field: string, opts: { required?: boolean; max?: number } = {}): string | null {
    const v = this.raw[field];
    if (v === undefined || v === null) {
      if (opts.required) this.fail(field, 'is required');
      return opts.required ? '' : null;
    }
    if (typeof v === 'number') {
      // Read as a number, it is no longer what was written: 00123 is 123, 12.50 is 12.5.
      this.fail(field, 'must be text; write it in quotes to keep it as it is written');
      return null;
    }
    if (typeof v !== 'string') {
      this.fail(field, 'must be text');
      return null;
    }
    // Held to its limit as it is kept, directions closed: an export of it is read back.
    const s = closeDirections(v.trim());
    // Required text that draws nothing (a zero-width space) is as empty as the CLI and screen hold it.
    if (opts.required && isBlank(s)) this.fail(field, 'must not be empty');
    if (opts.max !== undefined && longerThan(s, opts.max)) this.fail(field, `must be at most ${opts.max} characters`);
    return s === '' && !opts.required ? null : s;
  }

  oneOf<T extends string>(field: string, values: readonly T[], fallback: T): T;
  oneOf<T extends string>(field: string, values: readonly T[], fallback: null): T | null;
  oneOf<T extends string>(field: string, values: readonly T[], fallback: T | null): T | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.fail(field, `${echoedJson(v)} is not one of ${values.join(', ')}`);
      return fallback;
    }
    return v as T;
  }

  integer(field: string, opts: { min?: number; max?: number; fallback: number }): number;
  integer(field: string, opts: { min?: number; max?: number; fallback: null }): number | null;
  integer(field: string, opts: { min?: number; max?: number; fallback: number | null }): number | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return opts.fallback;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      // A whole number past 2^53 reaches here already rounded: it is said to be too large, not
      // quoted as a number the file does not hold.
      this.fail(
        field,
        typeof v === 'number' && Number.isInteger(v)
          ? `is too large a number; it must be ${opts.max === undefined ? `at most ${Number.MAX_SAFE_INTEGER}` : `between ${opts.min ?? 0} and ${opts.max}`}`
          : `${echoedJson(v)} is not a whole number`,
      );
      return opts.fallback;
    }
    if ((opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max)) {
      const range = opts.max === undefined ? `at least ${opts.min}` : `between ${opts.min ?? 0} and ${opts.max}`;
      this.fail(field, `${echoed(v)} must be ${range}`);
      return opts.fallback;
    }
    return v;
  }

  flag(field: string): boolean {
    const v = this.raw[field];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') {
      this.fail(field, 'must be true or false');
      return false;
    }
    return v;
  }

  /** `YYYY-MM-DD`, `today`, `+3d` or `-12d`, resolved against the desk's today; `past`: not after it. */
  date(field: string, opts: { past?: boolean } = {}): string | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return null;
    const resolved = typeof v === 'string' ? resolveDate(v, this.today) : null;
    if (resolved === null)
      this.fail(
        field,
        typeof v === 'string' && isBeforeFirstDay(v)
          ? `${echoedJson(v)} is before ${FIRST_DAY}, the first day the desk keeps`
          : typeof v === 'string' && isOffsetOutOfRange(v)
            ? `${echoedJson(v)} lands outside the days the desk keeps, ${FIRST_DAY} to ${LAST_DAY}`
            : `${echoedJson(v)} is not a date (YYYY-MM-DD, today, +3d or -12d)`,
      );
    else if (opts.past && resolved > this.today) this.fail(field, `${resolved} is after today (${this.today})`);
    return resolved;
  }

  list(field: string): unknown[] {
    const v = this.raw[field];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.fail(field, 'must be a list');
      return [];
    }
    return v;
  }

  object(field: string): Raw | null {
    const v = this.raw[field];
    if (v === undefined || v === null) return null;
    if (!isObject(v)) {
      this.fail(field, 'must be a mapping of names to values');
      return null;
    }
    return v;
  }
}

/** The label an entry goes by in errors: its list and position, and its name when it has one. */
export function entryName(list: string, index: number, raw: unknown): string {
  const label = isObject(raw) ? (raw.ref ?? raw.title ?? raw.name ?? raw.id) : undefined;
  return typeof label === 'string' && !isBlank(label) && unstorableIn(label) === null
    ? `${list}[${index}] "${echoed(label.trim())}"`
    : `${list}[${index}]`;
}
