import { describe, expect, it } from 'vitest';
import type { DeskPass, PassAct } from '../../domain/work/pass.ts';
import { deskPassLines } from './work-pass.ts';

const act = (work_id: number, over: Partial<PassAct> = {}): PassAct => ({
  work_id,
  title: `Row ${work_id}`,
  as: 'run',
  ok: true,
  outcome: `Sent "Row ${work_id}".`,
  activity_id: work_id,
  ...over,
});

const pass = (state: DeskPass['state'], acts: PassAct[]): DeskPass => ({
  desk_id: 'dsk_1',
  slug: 'hrs',
  state,
  acts,
  faults: [],
  ms: 5,
});

describe("a desk's pass, as `desk work pass` prints it", () => {
  it('says nothing was done only where nothing was', () => {
    expect(deskPassLines(pass('outside_hours', []))).toEqual([
      'hrs: 0 acts; outside its working hours; nothing done on its own.',
    ]);
    expect(deskPassLines(pass('paused', []))[0]).toBe(
      'hrs: 0 acts; paused; nothing done on its own (resume with: desk desks resume hrs).',
    );
  });

  it('a pass that acted and then met the end of the hours, or a pause, says it did no more', () => {
    expect(deskPassLines(pass('outside_hours', [act(12), act(13)]))).toEqual([
      'hrs: 2 acts; then its working hours ended, so it did no more.',
      '  #12 ran: Sent "Row 12".',
      '  #13 ran: Sent "Row 13".',
    ]);
    expect(deskPassLines(pass('paused', [act(12)]))[0]).toBe(
      'hrs: 1 act; then paused, so it did no more (resume with: desk desks resume hrs).',
    );
    // A send put back did nothing: the pass still did nothing on its own.
    expect(deskPassLines(pass('paused', [act(12, { put_back: true, ok: false })]))[0]).toBe(
      'hrs: 0 acts; paused; nothing done on its own (resume with: desk desks resume hrs).',
    );
  });
});
