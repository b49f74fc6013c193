import type { Command } from 'commander';
import { checkedArgument, idOf, type TypedId } from '../checks.ts';
import { dbOption, inline, jsonOption, print, Reported, stoppable, withDeps, type DbOptions, type Io } from '../io.ts';
import { contextForRow } from './work.ts';

// `desk run ID`: the same run as POST /work/{id}/run, from the terminal, with each step shown
// as it starts. Runs are the owner's too, so the grant still decides.

export function runCommand(program: Command, io: Io): void {
  const run = program
    .command('run')
    .description(
      'Have the desk carry a row out now (send its message, or drive its playbook in Chromium), showing each step',
    )
    .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
    .option('--desk <desk>', 'desk id or slug');
  jsonOption(dbOption(run)).action(async (typed: TypedId, o: DbOptions & { desk?: string; json?: boolean }) => {
    const { runWork } = await import('../../domain/work/run.ts');
    await withDeps(io, o, async (deps) => {
      const { ctx, id } = await contextForRow(deps, typed, o.desk);
      if (!o.json) io.err(`Running #${id} on ${ctx.desk.slug}...`);
      // Ctrl-C ends the run as interrupted; its answer says so before the command stops (P-cli-10).
      await stoppable(io, deps, async () => {
        const answer = await runWork(ctx, id, {
          onStep: o.json ? undefined : (i, what) => io.err(`  step ${i + 1}: ${inline(what)}`),
        });
        print(io, o.json, answer, () => {
          const lines = [
            answer.ok
              ? `Done in ${(answer.ms / 1000).toFixed(1)} s: ${answer.outcome}`
              : `Not done: ${answer.reason ?? answer.outcome}`,
          ];
          if (answer.result) lines.push(`Result: ${answer.result}`);
          if (answer.waiting) lines.push(`Waiting on: ${answer.waiting}`);
          if (answer.needs) lines.push(`Needs: ${answer.needs}`);
          if (answer.timed_out) lines.push('The run ran out of time; nothing was changed.');
          return lines.join('\n');
        });
        // A run that did not finish the work is a failure to a script checking the exit code.
        if (!answer.ok) throw new Reported(answer.reason ?? answer.outcome);
      });
    });
  });
}
