import { describe, expect, it } from 'vitest';
import { redact } from './location.ts';

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
