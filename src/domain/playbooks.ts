// A playbook's steps and what running one reports; the runner itself is a port (ports.ts),
// implemented by adapters/chromium.

export type PlaybookStep =
  | { goto: string }
  | { fill: string; value: string }
  | { select: string; value: string }
  | { check: string }
  | { click: string }
  | { wait_for: string }
  | { expect_text: string }
  | { fail_if_text: string }
  | { read: string; as: string };

export const STEP_NAMES = [
  'goto',
  'fill',
  'select',
  'check',
  'click',
  'wait_for',
  'expect_text',
  'fail_if_text',
  'read',
] as const;

/** A value put into a step's text when the run starts: `{{unit.portal}}`, `{{secret.password}}`. */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Why a `goto` step's address may not be visited, or null. A playbook drives a browser on the
 * desk's own machine with the portal's password to hand: an address other than a web page's
 * (`file:`, `data:`, the browser's own pages) would read that machine, and a secret in an
 * address would carry the password wherever it points. Secrets are typed into fields (`fill`).
 * Checked on the step as written (a business file; an address made of placeholders is checked
 * once they are filled in) and on the address as filled in, before a run.
 */
export function gotoFault(url: string, { filled = false } = {}): string | null {
  let address = url.trim();
  if (!filled) {
    if (/\{\{\s*secret\./.test(address))
      return 'may not carry a {{secret...}} value in its address; type secrets into the form with fill';
    // One that begins with a placeholder takes its scheme from the value: checked once filled in.
    // Any other is checked with its placeholders standing for a word, so `file:///x?{{a.b}}` is
    // refused as written, and the address as filled in is held to the rule with no such pass.
    if (new RegExp(`^${PLACEHOLDER.source}`).test(address)) return null;
    address = address.replace(PLACEHOLDER, 'x');
  }
  let protocol = '';
  try {
    protocol = new URL(address).protocol;
  } catch {
    // Not an address at all: said below.
  }
  return protocol === 'http:' || protocol === 'https:' ? null : 'must go to a web address starting http:// or https://';
}

/**
 * Which of a step's fields is not the text it must be, or null: the field that names the step
 * (an address, a selector, a text to look for) and a read's `as`, non-empty text; a fill's or a
 * select's `value`, text or a number. Checked when a business file is read and again before a
 * run, on steps stored before.
 */
export function stepTextFault(kind: (typeof STEP_NAMES)[number], step: Record<string, unknown>): string | null {
  const named = step[kind];
  if (typeof named !== 'string' || named === '') return 'a value';
  if ((kind === 'fill' || kind === 'select') && typeof step.value !== 'string' && typeof step.value !== 'number')
    return '"value"';
  if (kind === 'read' && (typeof step.as !== 'string' || step.as === '')) return '"as"';
  return null;
}

export interface PlaybookRequest {
  steps: PlaybookStep[];
  /**
   * Values for `{{work.title}}`, `{{unit.name}}`, `{{arrangement.name}}`, `{{secret.password}}` and so on.
   * Everything under `secret` is masked wherever the runner reports what it did.
   */
  vars: Record<string, Record<string, unknown>>;
  timeoutMs: number;
  /**
   * How long a step waits for the page to show what it names (a field, a button, a text) before
   * it counts as failed; STEP_LIMIT_MS unless given.
   */
  stepLimitMs?: number;
  onStep?: (index: number, description: string) => void;
  /**
   * Stops the run where it is: the browser is closed before the result comes back, so nothing
   * the steps would have done after it reaches the portal.
   */
  signal?: AbortSignal;
}

/**
 * A portal that shows an error page in place of the form a step looks for (a wrong password, a
 * changed page) fails that step within half a minute, rather than holding the browser for the
 * whole run's limit and ending as timed out with no reason given.
 */
export const STEP_LIMIT_MS = 30_000;

export interface PlaybookResult {
  ok: boolean;
  /** What `read` steps captured, by their `as` name. */
  reads: Record<string, string>;
  /** Human sentence of what failed, secrets masked. */
  error: string | null;
  timedOut: boolean;
  /** True when no browser could be started on this machine. */
  unavailable: boolean;
  stepsDone: number;
  /** One line per step carried out, secrets masked. */
  log: string[];
}

/** Every secret value under `vars.secret`, longest first. */
export function secretValues(vars: PlaybookRequest['vars']): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v !== '') out.add(v);
    } else if (typeof v === 'number' || typeof v === 'bigint') out.add(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object' && !(v instanceof Date)) Object.values(v).forEach(walk);
  };
  walk(vars.secret);
  // Longest first, so a secret containing another is masked whole.
  return [...out].sort((a, b) => b.length - a.length);
}
