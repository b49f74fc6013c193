import { Argument, type Command, Option } from 'commander';
import { echoed, isBlank } from '../domain/text.ts';
import { MAX_ID } from '../domain/input.ts';
import { UsageError } from './io.ts';

// What the CLI checks of what was typed (ids, counts, ports, the flags a command needs) is
// declared with the option or argument it concerns, and one hook runs every such rule of the
// command about to run, before its action: a command typed with several mistakes hears of all
// of them, one line each, as the business file and a row's fields do (P-cli-7). What only the
// domain can judge (a row's fields, whether a slug is free) is judged after, as before.

/** The value as the command uses it, or what is wrong with what was typed. */
export type Rule = (raw: string) => { value: unknown } | { fault: string };

const rules = new WeakMap<Option | Argument, Rule>();
const needed = new WeakMap<Option, string | null>();
const together = new WeakMap<Command, Array<(opts: Record<string, unknown>) => string | null>>();

/** An option whose value is checked with the others before the command runs; the action gets the rule's value. */
export function checkedOption(flags: string, description: string, rule: Rule, fallback?: string): Option {
  const option = new Option(flags, description);
  if (fallback !== undefined) option.default(fallback, fallback);
  rules.set(option, rule);
  return option;
}

/** An option the command cannot run without; `missing` says so in the command's words (default: its flag and description). */
export function neededOption(flags: string, description: string, missing?: string, rule?: Rule): Option {
  const option = new Option(flags, description);
  needed.set(option, missing ?? null);
  if (rule) rules.set(option, rule);
  return option;
}

/** Whether a command cannot run without the flag (its help says so). */
export function isNeeded(option: Option): boolean {
  return needed.has(option);
}

/** An argument whose value is checked with the flags; the action gets the rule's value. */
export function checkedArgument(name: string, description: string, rule: Rule): Argument {
  const argument = new Argument(name, description);
  rules.set(argument, rule);
  return argument;
}

/** A rule over several flags at once (one of two, at least one of three): a sentence when broken. */
export function checkedTogether(cmd: Command, rule: (opts: Record<string, unknown>) => string | null): Command {
  together.set(cmd, [...(together.get(cmd) ?? []), rule]);
  return cmd;
}

/** `keys create`: the command as typed after `desk`. */
export function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Flags that name something: given empty, they would name nothing and be read as not given. */
const NAMING = ['--desk', '--db', '--kind', '--host'];

/**
 * Each flag once: given twice, the last would win unsaid (`--desk a --desk b` acting on b), and
 * `--x` with `--no-x` the same.
 */
function givenTwice(argv: readonly string[], cmd: Command): string[] {
  const seen = new Map<string, number>();
  for (const arg of argv) {
    if (arg === '--') break;
    const flag = /^--(?:no-)?([a-z][a-z0-9-]*)/.exec(arg)?.[1];
    const option = flag ? cmd.options.find((o) => o.long === `--${flag}` || o.long === `--no-${flag}`) : undefined;
    if (flag && option) seen.set(flag, (seen.get(flag) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([flag]) => `--${flag} is given more than once; give it once.`);
}

/**
 * Node reads the command line as UTF-8, each byte that is not (Latin-1 text, a file name saved
 * in another encoding) read as U+FFFD: such a value is refused, as a body or a business file
 * whose bytes are not UTF-8 is (P-bodies-3), rather than stored or looked up with U+FFFD in
 * place of what was typed.
 */
function notUtf8(name: string, raw: unknown): string | null {
  return typeof raw === 'string' && raw.includes('\uFFFD')
    ? `${name} holds bytes that are not UTF-8 (shown as \uFFFD), and the desk reads what is typed as UTF-8: set the terminal to UTF-8, or rename a file named in another encoding.`
    : null;
}

/**
 * A value holding nothing a person can see (spaces, or zero-width characters such as U+200B
 * pasted in with them) is read as empty, so each command refuses it as it refuses an empty one,
 * as the screen does (P-screen-17), rather than keep a title or a name that shows as nothing.
 */
function invisible(raw: unknown): boolean {
  return typeof raw === 'string' && raw !== '' && isBlank(raw);
}

/**
 * Every rule of the command about to run, all at once; the action then gets the values the
 * rules made. `argv`: what the command line holds, as main parses it.
 */
export function checkBeforeActions(program: Command, argv: () => readonly string[]): void {
  program.hook('preAction', (_program, cmd) => {
    const faults: string[] = givenTwice(argv().slice(2), cmd);
    cmd.registeredArguments.forEach((argument, i) => {
      const rule = rules.get(argument);
      if (invisible(cmd.processedArgs[i])) cmd.processedArgs[i] = '';
      const raw: unknown = cmd.processedArgs[i];
      const garbled = notUtf8(`<${argument.name()}>`, raw);
      if (garbled) faults.push(garbled);
      if (!rule || typeof raw !== 'string' || garbled) return;
      const r = rule(raw);
      if ('fault' in r) faults.push(r.fault);
      else cmd.processedArgs[i] = r.value;
    });
    for (const option of cmd.options) {
      const key = option.attributeName();
      const typed: unknown = cmd.getOptionValue(key);
      if (invisible(typed)) cmd.setOptionValue(key, '');
      const raw: unknown = cmd.getOptionValue(key);
      const garbled = notUtf8(option.long ?? option.flags, raw);
      if (garbled) {
        faults.push(garbled);
        continue;
      }
      const missing = needed.get(option);
      if (raw === undefined && missing !== undefined)
        faults.push(missing ?? `${pathOf(cmd)} needs ${option.flags} (${option.description}).`);
      if (raw === '' && NAMING.includes(option.long ?? '')) {
        faults.push(`${option.long} needs a value; "${echoed(typed)}" names nothing.`);
        continue;
      }
      const rule = rules.get(option);
      if (!rule || typeof raw !== 'string') continue;
      const r = rule(raw);
      if ('fault' in r) faults.push(r.fault);
      else cmd.setOptionValue(key, r.value);
    }
    for (const rule of together.get(cmd) ?? []) {
      const fault = rule(cmd.opts());
      if (fault) faults.push(fault);
    }
    if (faults.length > 0) throw new UsageError(...faults);
  });
}

/** A whole number from `min` to `max`, such as `--limit 20`. */
export function wholeNumber(flag: string, min: number, max: number): Rule {
  return (raw) => {
    const n = Number(raw);
    return /^\d+$/.test(raw.trim()) && n >= min && n <= max
      ? { value: n }
      : { fault: `${flag} must be a whole number from ${min} to ${max}, not "${echoed(raw)}".` };
  };
}

/** A port number; 0 (any free port) only where `lowest` allows it. */
export function portNumber(lowest: 0 | 1 = 1): Rule {
  return (raw) => {
    const n = Number(raw);
    return /^\d+$/.test(raw.trim()) && n >= lowest && n <= 65535
      ? { value: n }
      : { fault: `--port "${echoed(raw)}" is not a port number (${lowest}-65535).` };
  };
}

/**
 * An id as its command gets it: a number a row or key can have, or, for a whole number none can
 * (0, or past MAX_ID), a bigint holding exactly the digits typed.
 */
export type TypedId = number | bigint;

/** The id to look up, or null for one no row or key can have. */
export function storedId(id: TypedId): number | null {
  return typeof id === 'number' ? id : null;
}

/**
 * A row's or key's id: a whole number. One no row can have is still an id, of a row that is not
 * there: its command looks for nothing (PostgreSQL would refuse a number past MAX_ID) and says
 * it is not found, in the words of any other missing one, as the API answers 404 for it (D20).
 */
export function idOf(what: string): Rule {
  return (raw) => {
    const digits = raw.trim();
    if (!/^\d+$/.test(digits))
      return { fault: `"${echoed(raw)}" is not a ${what} id; ids are whole numbers such as 12.` };
    const n = BigInt(digits);
    return { value: n >= 1n && n <= BigInt(MAX_ID) ? Number(n) : n };
  };
}

/** One of a fixed set of words. */
export function oneOf(flag: string, words: readonly string[]): Rule {
  return (raw) => (words.includes(raw) ? { value: raw } : { fault: `${flag} must be one of ${words.join(', ')}.` });
}

/** Text that is not empty; `fault` says what to type instead. */
export function someText(fault: string): Rule {
  return (raw) => (raw.trim() === '' ? { fault } : { value: raw });
}

/** Whether the command line says `--flag=value`, the value joined to its flag. */
function givenJoined(cmd: Command, long: string | undefined, value: string): boolean {
  let root = cmd;
  while (root.parent) root = root.parent;
  const raw = (root as Command & { rawArgs?: string[] }).rawArgs ?? [];
  return long !== undefined && raw.includes(`${long}=${value}`);
}

/**
 * A flag typed where a value belongs (`--name --db x`, the name forgotten) is said as that:
 * commander would take `--db` as the name and then refuse `x` as one argument too many.
 * Applied to every command once all are declared; only the command's own flags count, so a
 * value that merely starts with dashes still passes.
 */
export function refuseFlagsAsValues(cmd: Command): void {
  const flags = new Set(['--help', '-h', ...cmd.options.flatMap((o) => [o.long, o.short])]);
  for (const option of cmd.options) {
    if (!option.required || option.variadic || option.parseArg) continue;
    const name = option.long ?? option.short ?? option.flags;
    option.argParser((value: string) => {
      // Given with `=` (`--title=--json`), the value is plainly the value.
      if (flags.has(value) && !givenJoined(cmd, option.long, value))
        throw new UsageError(`${name} needs its value before ${value}.`);
      return value;
    });
  }
  for (const sub of cmd.commands) refuseFlagsAsValues(sub);
}
