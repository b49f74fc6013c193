import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Two rules made since rows were written under earlier versions (P-mail-10, P-watches-5):
// a prepared message's subject is one line, and a row a watch made is of its watch's kind.
// Messages not yet sent have their subjects made one line, as the desk now writes them, so
// what is recorded as sent is what goes; rows of a watch still there take its kind, so a watch
// removed and made again goes on from them. Sent messages stay as they were recorded. Written
// out here: a migration stays as it was when made.

function oneLine(text: string): string {
  return text.replace(/\s*[\p{Cc}\u2028\u2029][\p{Cc}\u2028\u2029\s]*/gu, ' ').trim();
}

export function draftsAndWatchRows(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const drafts = (await db
        .selectFrom('activity')
        .select(['id', 'subject'])
        .where('kind', '=', 'message')
        .where('status', '=', 'drafted')
        .where('subject', 'is not', null)
        .execute()) as Array<{ id: number; subject: string }>;
      for (const d of drafts) {
        const subject = oneLine(d.subject);
        if (subject !== d.subject) await db.updateTable('activity').set({ subject }).where('id', '=', d.id).execute();
      }
      const rows = (await db
        .selectFrom('work')
        .innerJoin('watches', 'watches.id', 'work.watch_id')
        .select(['work.id as id', 'watches.kind as kind'])
        .whereRef('work.kind', '<>', 'watches.kind')
        .execute()) as Array<{ id: number; kind: string }>;
      for (const r of rows) await db.updateTable('work').set({ kind: r.kind }).where('id', '=', r.id).execute();
    },
    // What was there before is not kept anywhere to put back.
    async down() {},
  };
}
