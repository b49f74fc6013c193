import type { Command } from 'commander';
import { asFlags } from '../flags.ts';
import { checkedArgument, checkedOption, idOf, type TypedId, wholeNumber } from '../checks.ts';
import { SNOOZE_DEFAULT_DAYS, SNOOZE_MAX_DAYS, SNOOZE_MIN_DAYS } from '../../domain/work/snooze-days.ts';
import {
  AFTER_INTERRUPT_MS,
  dbOption,
  inline,
  jsonOption,
  print,
  Reported,
  stoppable,
  withDeps,
  type DbOptions,
  type Io,
} from '../io.ts';
import { contextForRow } from './work.ts';

// The API's own verbs on a row (POST /work/{id}/snooze, draft, complete), from the terminal:
// the same domain calls, and with --json what the route returns in `data`.

type RowOptions = DbOptions & { desk?: string; json?: boolean };

function rowCommand(work: Command, name: string, description: string): Command {
  return jsonOption(
    dbOption(
      work
        .command(name)
        .description(description)
        .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
        .option('--desk <desk>', 'desk id or slug'),
    ),
  );
}

export function workVerbCommands(work: Command, io: Io): void {
  rowCommand(work, 'snooze', 'Push the due date out (default 3 days); priority falls by 5')
    .addOption(
      checkedOption(
        '--days <n>',
        `whole days, ${SNOOZE_MIN_DAYS}-${SNOOZE_MAX_DAYS} (default ${SNOOZE_DEFAULT_DAYS})`,
        wholeNumber('--days', SNOOZE_MIN_DAYS, SNOOZE_MAX_DAYS),
      ),
    )
    .action(async (typed: TypedId, o: RowOptions & { days?: number }) => {
      const days = o.days;
      const { snoozeWork } = await import('../../domain/work/snooze.ts');
      await withDeps(io, o, async (deps) => {
        const { ctx, id } = await contextForRow(deps, typed, o.desk);
        const a = await asFlags(() => snoozeWork(ctx, id, days));
        print(
          io,
          o.json,
          a,
          () => `Snoozed #${a.id} ${inline(a.title)}: now due ${a.due_date ?? 'none'}, priority ${a.priority}.`,
        );
      });
    });

  rowCommand(work, 'draft', "Have the desk write the row's message (nothing is sent)").action(
    async (typed: TypedId, o: RowOptions) => {
      const { draftRow } = await import('../../domain/work/draft.ts');
      await withDeps(io, o, async (deps) => {
        const { ctx, id } = await contextForRow(deps, typed, o.desk);
        const { answer: a, wrote } = await draftRow(ctx, id);
        // The message the row already had comes back as it is; with --json, as the route gives
        // it (D15), and in words, as a repeat that changed nothing (P-cli-28).
        print(io, o.json, a, () =>
          a.drafted
            ? [
                wrote === null
                  ? `#${id} already has a prepared message, to ${a.to} (${a.channel}); nothing was changed:`
                  : `Drafted for #${id}, to ${a.to} (${a.channel}):`,
                `Subject: ${a.subject}`,
                '',
                a.body,
              ].join('\n')
            : `Not drafted: ${a.reason}`,
        );
        // A draft the desk declined is a failure to a script checking the exit code, as a send
        // that failed is for `work complete`: no message was written.
        if (!a.drafted) throw new Reported(a.reason);
      });
    },
  );

  rowCommand(work, 'complete', 'Do what the row asks: send its prepared message, then move it to waiting or done')
    .option('--note <text>', "appended to the row's detail")
    .action(async (typed: TypedId, o: RowOptions & { note?: string }) => {
      const { completeWork } = await import('../../domain/work/complete.ts');
      await withDeps(io, o, async (deps) => {
        const { ctx, id } = await contextForRow(deps, typed, o.desk);
        // Ctrl-C while the message is on its way cannot call it back: the send is given a few
        // seconds to end and be recorded, and the answer is printed if it does (P-cli-10).
        await stoppable(
          io,
          deps,
          async () => {
            const a = await asFlags(() =>
              completeWork(ctx, id, {
                note: o.note,
                actor: 'owner',
                onSending: o.json ? undefined : (m) => io.err(`Sending "${inline(m.subject)}" to ${inline(m.to)}...`),
              }),
            );
            print(
              io,
              o.json,
              a,
              // A done or closed row keeps whom it last waited on; only a waiting row is waiting on them.
              () =>
                `#${a.id} is ${a.status === 'waiting' && a.waiting_on ? `waiting on ${a.waiting_on}` : a.status}. ${a.delivery_note}`,
            );
            // A send that failed is a failure to a script checking the exit code, as with desk run;
            // so is a complete that left the row neither out with somebody nor done (another send
            // on it still under way, or the row closed): nothing was done.
            if (a.failed || !(a.status === 'waiting' || a.status === 'done')) throw new Reported(a.delivery_note);
          },
          `Stopping: a message on its way may already have gone, so the send is given ${AFTER_INTERRUPT_MS / 1000} seconds to end and be recorded (Ctrl-C again to stop at once); if it does not, \`desk work show ${id}\` says once the desk can tell.`,
        );
      });
    });
}
