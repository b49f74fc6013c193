import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A message still to go (drafted or approved) is now held to what the owner may approve
// unchanged and a business file takes back (P-import-23): a subject of one line and at most
// 300 characters, sent by email. Earlier versions took an approved one's subject over two lines,
// wrote a subject as long as a title and its template made it, and kept a file's `channel: sms`
// on a message they then sent by email. Those are brought to how they go out, so that a desk's
// export reads back. Sent messages stay as they were recorded. Written out here: a migration
// stays as it was when made.

const SUBJECT_MAX = 300;

function oneLine(text: string): string {
  return text.replace(/\s*[\p{Cc}\u2028\u2029][\p{Cc}\u2028\u2029\s]*/gu, ' ').trim();
}

function clipped(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

export function messagesToGo(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const messages = (await db
        .selectFrom('activity')
        .select(['id', 'subject', 'channel'])
        .where('kind', '=', 'message')
        .where('status', 'in', ['drafted', 'approved'])
        .execute()) as Array<{ id: number; subject: string | null; channel: string }>;
      for (const m of messages) {
        const subject = m.subject === null ? null : clipped(oneLine(m.subject), SUBJECT_MAX);
        if (subject !== m.subject || m.channel !== 'email')
          await db.updateTable('activity').set({ subject, channel: 'email' }).where('id', '=', m.id).execute();
      }
    },
    // What was there before is not kept anywhere to put back.
    async down() {},
  };
}
