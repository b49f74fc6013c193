// Domain errors carry the contract's `code` and know nothing of HTTP; the HTTP layer maps
// codes to statuses in one table (src/http/errors.ts), and the CLI prints `message`.

import { echoed } from './text.ts';

export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'no_desk',
  'not_permitted',
  'not_found',
  'payload_too_large',
  'rate_limited',
  'unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DeskError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DeskError';
  }
}

/**
 * The desk was deleted: before a program's request with its key, or while a write was under way.
 * The owner (screen, CLI) is told in the owner's terms, not a program's.
 */
export const deskGone = (to: 'program' | 'owner' = 'program') =>
  new DeskError(
    'no_desk',
    to === 'program'
      ? 'The key is valid but its desk no longer exists. Disable this integration.'
      : 'This desk was deleted while the change was being made, so nothing of the change was kept; a message already handed to the mail server may have gone.',
  );
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new DeskError('bad_request', message, details);
export const notFound = (what: 'work item' | 'arrangement' | 'desk' | 'key' | 'route' | string, id?: unknown) =>
  new DeskError('not_found', id === undefined ? `No such ${what}.` : `No ${what} ${echoed(id)} on this desk.`);
export const notPermitted = (permission: string | null, deskSlug = 'SLUG') =>
  new DeskError(
    'not_permitted',
    permission === 'money' || permission === 'sign'
      ? `This row is "${permission}" work, which can never be granted: a person does it.`
      : permission
        ? `The desk has not been granted "${permission}" work. The owner grants it with: desk grants set --desk ${deskSlug} ${permission}`
        : 'This row is in no permission class, and unclassified work is never delegated.',
    { permission },
  );
