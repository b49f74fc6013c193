// A tour of the desk-client package against a running desk. Start the service (`npm start`
// prints the demo desk's key on first start, or `npx desk demo` makes one), then:
//
//   DESK_KEY=desk_... npx tsx examples/client.ts
//
// DESK_API defaults to http://127.0.0.1:8080/api/v1.

import { createDeskClient, DeskApiError, DeskConnectionError } from 'desk-client';

const key = process.env.DESK_KEY;
if (!key) {
  console.error('Set DESK_KEY to a desk key (the demo key is printed on first start).');
  process.exit(2);
}
const desk = createDeskClient({ baseUrl: process.env.DESK_API ?? 'http://127.0.0.1:8080/api/v1', key });

try {
  const me = await desk.me();
  console.log(`${me.desk.name}: ${me.work.open} open, ${me.work.waiting} waiting on someone`);

  // Walk the whole open queue; the client follows the cursors.
  const byAction = new Map<string, number>();
  for await (const item of desk.work.all()) {
    const action = item.action?.type ?? 'nothing';
    byAction.set(action, (byAction.get(action) ?? 0) + 1);
  }
  console.log('next steps:', Object.fromEntries(byAction));

  // Have the desk write the first message it can prepare. `drafted: false` is an answer, not an
  // error: the desk had nothing true to say.
  const page = await desk.work.list({ limit: 200 });
  const toPrepare = page.items.find((i) => i.action?.type === 'prepare');
  if (toPrepare) {
    const draft = await desk.work.draft(toPrepare.id);
    console.log(draft.drafted ? `drafted for ${draft.to}: ${draft.subject}` : `not drafted: ${draft.reason}`);
  }

  // A write with a key of the caller's own: running this script twice snoozes once.
  const first = page.items.find((i) => i.action?.type !== 'wait');
  if (first) {
    const snoozed = await desk.work.snooze(first.id, { days: 7 }, { idempotencyKey: `example-snooze-${first.id}` });
    console.log(`snoozed #${snoozed.id} "${snoozed.title}" to ${snoozed.due_date}`);
  }

  const answer = await desk.chat('what is overdue?');
  console.log(answer.timed_out ? 'the desk did not answer in time' : answer.answer);

  for await (const event of desk.events.all()) {
    console.log(`${event.created_at} ${event.kind}: ${event.message}`);
    break;
  }

  await desk.work.get(999_999);
} catch (err) {
  if (err instanceof DeskApiError) {
    // Branch on code, never on message; quote the request id to the desk's owner.
    console.log(`desk said ${err.status} ${err.code}: ${err.message} (request ${err.requestId})`);
  } else if (err instanceof DeskConnectionError) {
    console.error(`no answer from the desk${err.timedOut ? ' in time' : ''} after ${err.attempts} attempts`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
