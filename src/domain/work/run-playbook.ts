import { secretValues, type PlaybookRequest, type PlaybookResult, type PlaybookStep } from '../playbooks.ts';
import { masker } from '../mask.ts';
import type { WorkRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { storedObject } from '../text.ts';
import { connectionConfig, findArrangement, findPlaybook, findUnit } from '../../store/repositories/rows.ts';
import { SecretKeyError } from '../../store/cipher.ts';

// The playbook half of a run: loads the row's playbook, gathers the values its steps may use
// ({{work.x}}, {{unit.x}}, {{arrangement.x}}, {{secret.x}}) and drives the runner within the
// run's time limit. Secrets come from the playbook's login connection and leave this file only
// inside the runner's request; `mask` hides them in anything the caller records.

/** Time the runner gets beyond its own limit to close the browser before the run stops waiting for it. */
const RUNNER_GRACE_MS = 15_000;

export interface PlaybookDrive {
  name: string;
  steps: number;
  result: PlaybookResult;
  /** Replaces every secret value with ***; apply it to anything written or answered. */
  mask: (s: string) => string;
}

async function varsFor(ctx: DeskContext, row: WorkRow, connectionId: number | null): Promise<PlaybookRequest['vars']> {
  const work: Record<string, unknown> = {
    id: row.id,
    title: row.title,
    detail: row.detail,
    kind: row.kind,
    due_date: row.due_date,
    priority: row.priority,
    permission: row.class,
    contact_name: row.contact_name,
    contact_email: row.contact_email,
    waiting_on: row.waiting_on,
  };

  let unit: Record<string, unknown> = {};
  if (row.unit_id !== null) {
    const u = await findUnit(ctx.db, ctx.desk.id, row.unit_id);
    if (u) {
      const fields = storedObject(u.fields);
      // The business's own columns read as {{unit.lease_end}} as well as {{unit.fields.lease_end}}.
      unit = { ...fields, id: u.id, type: u.type, name: u.name, fields };
    }
  }

  let arrangement: Record<string, unknown> = {};
  if (row.arrangement_id !== null) {
    const a = await findArrangement(ctx.db, ctx.desk.id, row.arrangement_id);
    if (a) {
      const { desk_id: _desk, created_at: _created, ...rest } = a;
      arrangement = rest;
    }
  }

  let secret: Record<string, unknown> = {};
  if (connectionId !== null) {
    secret = storedObject(await connectionConfig(ctx.db, ctx.desk.id, connectionId));
  }
  return { work, unit, arrangement, secret };
}

/** What went wrong before the runner could be asked, as a failed result in the runner's own terms. */
function refused(error: string): PlaybookResult {
  return { ok: false, reads: {}, error, timedOut: false, unavailable: false, stepsDone: 0, log: [] };
}

export async function drivePlaybook(
  ctx: DeskContext,
  row: WorkRow,
  onStep?: PlaybookRequest['onStep'],
  signal?: AbortSignal,
): Promise<PlaybookDrive> {
  const pb = row.playbook_id === null ? undefined : await findPlaybook(ctx.db, ctx.desk.id, row.playbook_id);
  if (!pb) return { name: '', steps: 0, result: refused("The row's playbook no longer exists."), mask: (s) => s };

  let steps: PlaybookStep[];
  try {
    const parsed = JSON.parse(pb.steps) as unknown;
    if (!Array.isArray(parsed)) throw new Error('not a list');
    steps = parsed as PlaybookStep[];
  } catch {
    return {
      name: pb.name,
      steps: 0,
      result: refused(`The steps of the playbook "${pb.name}" could not be read.`),
      mask: (s) => s,
    };
  }

  let vars: PlaybookRequest['vars'];
  try {
    vars = await varsFor(ctx, row, pb.connection_id);
  } catch (err) {
    if (!(err instanceof SecretKeyError)) throw err;
    const result = refused(`The portal password could not be opened, so the playbook was not run. ${err.message}`);
    return { name: pb.name, steps: steps.length, result, mask: (s) => s };
  }
  const mask = masker(secretValues(vars));
  const timeoutMs = ctx.config.runTimeoutMs;

  // The runner keeps its own time; this bound only guards against a runner that never returns.
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<PlaybookResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ...refused(`The run did not finish within ${Math.round(timeoutMs / 1000)}s.`), timedOut: true }),
      timeoutMs + RUNNER_GRACE_MS,
    );
  });
  try {
    const result = await Promise.race([ctx.engine.runner.run({ steps, vars, timeoutMs, onStep, signal }), guard]);
    return { name: pb.name, steps: steps.length, result, mask };
  } catch (err) {
    // Whatever the runner threw may quote what it typed; nothing leaves here unmasked.
    throw new Error(mask(err instanceof Error ? err.message : String(err)));
  } finally {
    clearTimeout(timer);
  }
}
