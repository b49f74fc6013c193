// Where a row goes once its step is done (its message went, or a person recorded the work):
// it waits while somebody still owes a reply, and is done otherwise. Complete, a run's end and
// a send that landed after its run's time ran out all move the row by this one rule.

export type AfterStep = 'waiting' | 'done';

export function afterStep(row: { waiting_on: string | null }): AfterStep {
  return row.waiting_on ? 'waiting' : 'done';
}

/** What a row moving to `to` records besides its status: a row that is done, when it closed. */
export function closedOn(to: string, now: string): { closed_at?: string } {
  return to === 'done' ? { closed_at: now } : {};
}
