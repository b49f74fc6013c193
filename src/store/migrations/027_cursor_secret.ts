import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The secret the queue's cursors are signed with (domain/work/cursor.ts) is made with the
// database, not by the first read of the queue: a read on a database no server had opened yet
// (made by `desk import`, say) otherwise had to write it, and failed while another process held
// the write lock or the disk was full (P-ops-8). The setting's name is written out here: a
// migration stays as it was when made.

export function cursorSecretMade(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db
        .insertInto('settings')
        .values({ key: 'cursor_secret', value: randomBytes(32).toString('base64url') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
    // A secret made here is a secret like any other; nothing to undo.
    async down() {},
  };
}
