// The playbook runner interface the domain drives. The real one drives Chromium (browser.ts).

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

export const STEP_NAMES = ['goto', 'fill', 'select', 'check', 'click', 'wait_for', 'expect_text', 'fail_if_text', 'read'] as const;

export interface PlaybookRequest {
  steps: PlaybookStep[];
  /**
   * Values for `{{work.title}}`, `{{unit.name}}`, `{{arrangement.name}}`, `{{secret.password}}` and so on.
   * Everything under `secret` is masked wherever the runner reports what it did.
   */
  vars: Record<string, Record<string, unknown>>;
  timeoutMs: number;
  onStep?: (index: number, description: string) => void;
}

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

export interface PlaybookRunner {
  run(request: PlaybookRequest): Promise<PlaybookResult>;
}
