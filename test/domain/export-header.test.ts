import { describe, expect, it } from 'vitest';
import { exportDesk } from '../../src/domain/business/export.ts';
import { addConnection } from '../helpers/business.ts';
import { ownerDesk } from '../helpers/owner-desk.ts';

// The comment lines at the top of an exported YAML file are prose a terminal shows when the file
// goes to standard output: a name the desk keeps reaches them written out, as the YAML below
// them keeps it escaped (P-cli-11).

describe("an export's opening comment", () => {
  const t = ownerDesk({ name: 'Esc \u001b[2J name\u0007', timezone: 'UTC' });

  it('writes out the control characters of the names it quotes, and stays comment lines', async () => {
    await addConnection(t.store.db, t.ctx.desk.id, { name: 'Box\u009b1\nnext: line' });
    const { text } = await exportDesk(t.ctx, 'yaml');
    const comment = text.split('\n').filter((l) => l.startsWith('#'));
    expect(comment[0]).toContain('"Esc \\u001b[2J name\\u0007"');
    expect(comment.find((l) => l.includes('Secrets were left out'))).toContain('Box\\u009b1\\nnext: line');
    for (const line of comment) expect(line).not.toMatch(/\p{Cc}/u);
    expect(text).toContain('name: "Esc \\e[2J name\\a"');
  });
});
