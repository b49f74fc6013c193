import { describe, expect, it } from 'vitest';
import { RunPage } from './misc.tsx';

// A run's page read with script off: it offers to reload while the run goes on, and once the
// run has ended it shows the outcome and nothing more to wait for.

const page = (events: Parameters<typeof RunPage>[0]['events']) =>
  RunPage({ desk: 'Corner Bakery', csrf: 't', workId: 7, title: 'File the VAT return', runId: 'r1', events }).html;

describe("a run's page", () => {
  it('offers a reload while the run goes on', () => {
    const going = page([{ type: 'step', text: 'Opened the portal.' }]);
    expect(going).toContain('Reload to see the outcome');
    expect(going).toContain('The desk is working on it…');
  });

  it('offers none once the run has ended, its outcome there', () => {
    const ended = page([
      { type: 'step', text: 'Opened the portal.' },
      { type: 'end', ok: false, outcome: 'The portal refused the sign-in.' },
    ]);
    expect(ended).toContain('The portal refused the sign-in.');
    expect(ended).not.toContain('Reload to see the outcome');
  });
});
