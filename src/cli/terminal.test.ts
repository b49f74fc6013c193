import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askOnTerminal } from './terminal.ts';

function asked(typed: string | null, { terminal = false } = {}) {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY: terminal, columns: 80 });
  let shown = '';
  output.on('data', (c) => (shown += String(c)));
  const answer = askOnTerminal('Delete it?', input, output);
  if (typed === null) input.end();
  else input.write(typed);
  return answer.then((yes) => ({ yes, shown }));
}

describe('a yes/no question at the terminal', () => {
  it('is yes only for y or yes', async () => {
    expect((await asked('y\n')).yes).toBe(true);
    expect((await asked(' YES \n')).yes).toBe(true);
    expect((await asked('\n')).yes).toBe(false);
    expect((await asked('yeah\n')).yes).toBe(false);
  });

  it('takes Ctrl-D, the input ending with no answer, as no, and ends the line it asked on', async () => {
    const { yes, shown } = await asked(null);
    expect(yes).toBe(false);
    expect(shown).toBe('Delete it? [y/N] \n');
    // At a terminal, where Ctrl-D is a key pressed.
    const atTerminal = await asked('\x04', { terminal: true });
    expect(atTerminal.yes).toBe(false);
    expect(atTerminal.shown.endsWith('\n')).toBe(true);
  });
});
