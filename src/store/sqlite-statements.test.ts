import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteHandle, tableWritten } from './sqlite-statements.ts';

const require = createRequire(import.meta.url);
const dirs: string[] = [];
function file(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-stmt-'));
  dirs.push(dir);
  return path.join(dir, 'x.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function open(name: string): SQLite.Database {
  const s = new SQLite(name);
  s.pragma('journal_mode = WAL');
  return s;
}

describe('statements as Kysely is given them', () => {
  it('gives the very rows better-sqlite3 gives, duplicate names and all', () => {
    const s = open(file());
    s.exec(`create table t (a integer, b text, c real, d blob, e text);
      insert into t values (1, 'x', 1.5, x'00ff', null), (2, 'y', -2, null, 'z');`);
    const h = sqliteHandle(s);
    for (const text of [
      'select * from t order by a',
      'select a, b as a, e from t order by a',
      'select count(*), max(b) from t',
      'select * from t where a = ?',
    ]) {
      const params = text.includes('?') ? [2] : [];
      const expected = s.prepare(text).all(params);
      expect(h.database.prepare(text).all(params)).toEqual(expected);
      expect([...h.database.prepare(text).iterate(params)]).toEqual(expected);
    }
    const ins = h.database.prepare("insert into t (a, b) values (3, 'w') returning a, b");
    expect(ins.reader).toBe(true);
    expect(ins.all([])).toEqual([{ a: 3, b: 'w' }]);
    expect(h.database.prepare('delete from t where a = ?').run([3]).changes).toBe(1);
  });

  it('changes its version at each write of its own and each commit of another connection, and not on reads', async () => {
    const name = file();
    const s = open(name);
    s.exec('create table t (a integer)');
    const h = sqliteHandle(s);
    const v0 = h.version();
    h.database.prepare('select * from t').all([]);
    expect(h.version()).toBe(v0);
    h.database.prepare('insert into t values (1)').run([]);
    const v1 = h.version();
    expect(v1).not.toBe(v0);
    h.database.prepare('insert into t values (2) returning a').all([]);
    const v2 = h.version();
    expect(v2).not.toBe(v1);
    const other = open(name);
    other.prepare('select * from t').all();
    expect(h.version()).toBe(v2);
    other.prepare('delete from t').run();
    // Another connection's commit is seen from the next turn of the event loop.
    await nextTurn();
    expect(h.version()).not.toBe(v2);
    other.close();
  });

  it('sees every commit of another process, through checkpoints that restart the log', async () => {
    const name = file();
    const s = open(name);
    s.exec('create table t (a integer)');
    const h = sqliteHandle(s);
    let before = h.version();
    const script = (sql: string) =>
      `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const d = new D(${JSON.stringify(name)}); d.exec(${JSON.stringify(sql)}); d.close();`;
    for (const sql of [
      'insert into t values (1)',
      'insert into t values (2)',
      'pragma wal_checkpoint(TRUNCATE)',
      'insert into t values (3)',
      'pragma wal_checkpoint(RESTART)',
      'delete from t where a = 1',
    ]) {
      execFileSync(process.execPath, ['-e', script(sql)]);
      await nextTurn();
      const after = h.version();
      if (!sql.startsWith('pragma')) expect(after, sql).not.toBe(before);
      before = after;
      // Reads, here or there, change nothing.
      h.database.prepare('select * from t').all([]);
      await nextTurn();
      expect(h.version()).toBe(after);
    }
    h.database.close();
  });

  it('in a database held in memory, changes its version at each write', () => {
    const h = sqliteHandle(new SQLite(':memory:'));
    h.database.prepare('create table t (a integer)').run([]);
    const v0 = h.version();
    h.database.prepare('select * from t').all([]);
    expect(h.version()).toBe(v0);
    h.database.prepare('insert into t values (1)').run([]);
    expect(h.version()).not.toBe(v0);
    h.database.close();
  });

  it('names the table a statement writes, and none for a delete that may reach other tables or anything unclear', () => {
    const referenced = () => new Set(['desks']);
    const named = (text: string) => tableWritten(text, referenced);
    expect(named('insert into "events" ("desk_id") values (?)')).toBe('events');
    expect(named('insert into "idempotency" ("k") values (?) on conflict ("k") do nothing')).toBe('idempotency');
    expect(named('update "work" set "priority" = ? where "id" = ?')).toBe('work');
    expect(named('UPDATE desks SET open_count = open_count + ? WHERE id = ?')).toBe('desks');
    expect(named('delete from "open_arrangement_counts" where "n" = ?')).toBe('open_arrangement_counts');
    for (const text of [
      'delete from "desks" where "id" = ?',
      'DELETE FROM desks',
      'insert or replace into "t" values (?)',
      'replace into "t" values (?)',
      'with x as (select 1) update "t" set a = 1',
      'insert into "main"."t" values (1)',
      'pragma wal_checkpoint(TRUNCATE)',
      'create table t (a integer)',
    ])
      expect(named(text), text).toBeNull();
  });

  it("keeps a version of some tables through this connection's writes to others, and no further", async () => {
    const name = file();
    const s = open(name);
    s.exec('create table a (x integer); create table b (x integer); create table c (x integer primary key)');
    const h = sqliteHandle(s);
    const ofA = h.version(['a']);
    h.database.prepare('insert into "b" values (1)').run([]);
    h.database.prepare('update "b" set x = 2').run([]);
    expect(h.version(['a'])).toBe(ofA);
    expect(h.version()).not.toBe(h.version(['a']));
    h.database.prepare('update "a" set x = 2').run([]);
    const afterA = h.version(['a']);
    expect(afterA).not.toBe(ofA);
    // A delete from a table nothing points at reaches that table alone.
    h.database.prepare('delete from "c"').run([]);
    expect(h.version(['a'])).toBe(afterA);
    // Once another table's foreign key points at it, a delete may reach that table too.
    h.database.prepare('create table d (x integer references c (x))').run([]);
    const beforeDelete = h.version(['a']);
    h.database.prepare('delete from "c" where x = 1').run([]);
    expect(h.version(['a'])).not.toBe(beforeDelete);
    // Another connection's commit changes every version.
    const beforeOther = h.version(['a']);
    const other = open(name);
    other.prepare('insert into b values (3)').run();
    other.close();
    await nextTurn();
    expect(h.version(['a'])).not.toBe(beforeOther);
    h.database.close();
  });
});
