import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { redact, sqliteFile } from './location.ts';

// A database's address as Desk prints it (the server's first line, hints, messages): without
// any password the driver would read from it.

describe('a database address, printed', () => {
  it('hides a password written before the host', () => {
    expect(redact('postgres://desk:hunter2@db.test:5432/desk')).toBe('postgres://desk:***@db.test:5432/desk');
  });

  it('hides a password given as a query parameter, in any case, and keeps the other parameters', () => {
    expect(redact('postgres://desk@db.test/desk?password=hunter2&sslmode=require')).toBe(
      'postgres://desk@db.test/desk?password=***&sslmode=require',
    );
    expect(redact('postgresql://desk@db.test/desk?PassWord=a&sslpassword=b')).toBe(
      'postgresql://desk@db.test/desk?PassWord=***&sslpassword=***',
    );
  });

  it('leaves a file path as it is', () => {
    expect(redact('./data/desk.db')).toBe('./data/desk.db');
  });
});

describe('a SQLite file, named', () => {
  it('reads a leading ~/ as the home folder, with or without file:, and any other path as written', () => {
    const home = os.homedir();
    expect(sqliteFile('~/desk.db')).toBe(path.join(home, 'desk.db'));
    expect(sqliteFile('file:~/data/desk.db')).toBe(path.join(home, 'data', 'desk.db'));
    expect(sqliteFile('./~/desk.db')).toBe('./~/desk.db');
    expect(sqliteFile('~sam/desk.db')).toBe('~sam/desk.db');
    expect(sqliteFile('file:/tmp/desk.db')).toBe('/tmp/desk.db');
  });
});
