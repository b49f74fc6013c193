import { type Static, Type } from '@sinclair/typebox';
import { WORK_STATUSES } from '../vocab.ts';
import { DateString, Nullable } from './shared.ts';

// The answers of the writes on a work row (POST /work/{id}/complete, snooze, draft, run).

const Status = Type.Union(WORK_STATUSES.map((s) => Type.Literal(s)));

export const CompleteAnswerSchema = Type.Object(
  {
    id: Type.Integer(),
    status: Status,
    waiting_on: Nullable(Type.String()),
    failed: Type.Boolean({
      description: 'The desk tried to send and could not; the row stays open with last_error set.',
    }),
    delivered: Type.Boolean({
      description: 'A provider accepted the message. False with failed true means the send was intended and failed.',
    }),
    delivery_note: Type.String({ description: 'What happened to the message, written for a person.' }),
  },
  {
    $id: 'CompleteAnswer',
    description: 'The row after complete. status waiting is a success; delivered false with failed true is not.',
  },
);

export const SnoozeAnswerSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    kind: Type.String(),
    status: Status,
    due_date: Nullable(DateString),
    priority: Type.Integer({ minimum: 1, maximum: 100 }),
  },
  { $id: 'SnoozeAnswer', description: 'The snoozed row: its new due date and priority; status unchanged.' },
);

export const DraftAnswerSchema = Type.Union(
  [
    Type.Object({
      drafted: Type.Literal(true),
      channel: Type.String(),
      subject: Type.String(),
      body: Type.String(),
      to: Type.String({ description: 'Recipient address.' }),
    }),
    Type.Object({
      drafted: Type.Literal(false),
      reason: Type.String({ description: 'Written for a person; retrying does not change it.' }),
    }),
  ],
  {
    $id: 'DraftAnswer',
    description: "The row's prepared message, or drafted false with the reason the desk declined.",
  },
);

export const RunAnswerSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'False when the desk did not finish: see reason.' }),
    closed: Type.Boolean({ description: 'The run finished the work and closed the row.' }),
    outcome: Type.String({ description: 'Summary sentence, written for a person.' }),
    needs: Nullable(Type.String({ description: 'What is missing before the work can be done.' })),
    waiting: Nullable(Type.String({ description: 'Who is being waited on.' })),
    done: Type.String({ description: 'What was done.' }),
    result: Type.String({
      description: 'What the run brought back, e.g. an acknowledgement reference; empty when nothing.',
    }),
    activity_id: Nullable(
      Type.Integer({ description: 'The activity report written; null when the run wrote nothing.' }),
    ),
    ms: Type.Integer({ minimum: 0, description: 'Actual duration in milliseconds.' }),
    reason: Type.Optional(Type.String({ description: 'Present when ok is false; safe to show.' })),
    timed_out: Type.Optional(
      Type.Literal(true, {
        description:
          'Present when the run ran out of time (DESK_RUN_TIMEOUT), sends included; the row is as it was, and a message whose send was still unanswered says in its own record whether it went.',
      }),
    ),
  },
  { $id: 'RunAnswer', description: "The desk's report on a run; ok false is a report, not an error." },
);

export type CompleteAnswer = Static<typeof CompleteAnswerSchema>;
export type SnoozeAnswer = Static<typeof SnoozeAnswerSchema>;
export type DraftAnswer = Static<typeof DraftAnswerSchema>;
export type RunAnswer = Static<typeof RunAnswerSchema>;
