import { HELD_COUNTED, heldOn, setDeskSettings, type HeldTable } from '../../store/repositories/business.ts';
import { atomically } from '../../store/tx.ts';
import { keepKeysLastDays } from '../keys/expiry.ts';
import { actorName, type DeskContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { plural } from '../text.ts';
import { fillDesk, type Filled } from './import.ts';
import { parseBusinessText, type Rail, railsGiven, readBusiness } from './read.ts';

// The screen's "Import": a business file read into the signed-in owner's own desk, which must
// hold nothing yet. The desk keeps its id and slug (its sign-in and its keys hang off them);
// the file's name, plan, timezone, currency, broker and the rails it gives (hours, daily cap,
// reach, pause) become the desk's, so a paused desk's file is still paused here, and a rail
// the file leaves out stays as the desk had it. All or nothing.

const WORDS: Record<HeldTable, [string, string]> = {
  work: ['work item', 'work items'],
  arrangements: ['arrangement', 'arrangements'],
  units: ['unit', 'units'],
  watches: ['watch', 'watches'],
  connections: ['connection', 'connections'],
  domains: ['domain', 'domains'],
  sections: ['section', 'sections'],
  playbooks: ['playbook', 'playbooks'],
  grants: ['granted permission', 'granted permissions'],
};

/** What the desk holds, in words ("3 work items, 1 arrangement"); null when it holds nothing. */
export async function deskHoldings(
  ctx: DeskContext,
): Promise<{ words: string; held: Record<HeldTable, number> } | null> {
  const held = await heldOn(ctx.db, ctx.desk.id);
  const there = (Object.entries(held) as Array<[HeldTable, number]>)
    .filter(([, n]) => n > 0)
    .map(([t, n]) =>
      n > HELD_COUNTED
        ? `more than ${HELD_COUNTED.toLocaleString('en')} ${WORDS[t][1]}`
        : plural(n, WORDS[t][0], WORDS[t][1]),
    );
  return there.length === 0 ? null : { words: there.join(', '), held };
}

/** Refuses, in words, a desk that holds anything already. */
async function requireEmpty(ctx: DeskContext): Promise<void> {
  const holds = await deskHoldings(ctx);
  if (!holds) return;
  throw badRequest(
    `This desk already holds ${holds.words}. A business file is read only into an empty desk, so nothing was written; import it as a new desk with \`desk import FILE --slug NEW-SLUG\` instead.`,
    { held: holds.held },
  );
}

export async function importIntoDesk(ctx: DeskContext, text: string, source = 'The file'): Promise<Filled> {
  // Said before the file is read: no list of the file's errors matters on a desk that is not empty.
  await requireEmpty(ctx);
  const doc = parseBusinessText(text, source);
  const plan = readBusiness(doc, ctx.clock.now());
  // A rail the file leaves out keeps the desk's own: a desk paused before its file came in stays paused.
  const given = railsGiven(doc);
  const rail = <K extends Rail>(k: K, own: DeskContext['desk'][K]) => (given.has(k) ? plan.desk[k] : own);
  return atomically(ctx, async (tx) => {
    const settings = {
      name: plan.desk.name,
      plan: plan.desk.plan,
      timezone: plan.desk.timezone,
      currency: plan.desk.currency,
      broker: plan.desk.broker,
      hours: rail('hours', ctx.desk.hours),
      daily_cap: rail('daily_cap', ctx.desk.daily_cap),
      act_within_days: rail('act_within_days', ctx.desk.act_within_days),
      paused: given.has('paused') ? (plan.desk.paused ? 1 : 0) : ctx.desk.paused,
    };
    // Written first, so that on PostgreSQL the desk's row is held and a second import waits, then sees this one's rows.
    await setDeskSettings(tx.db, ctx.desk.id, settings);
    await requireEmpty(tx);
    await keepKeysLastDays(tx.db, ctx.desk.id, ctx.desk.timezone, settings.timezone);
    return fillDesk(tx.db, { ...ctx.desk, ...settings }, plan, { now: ctx.now(), by: actorName(ctx.actor) });
  });
}
