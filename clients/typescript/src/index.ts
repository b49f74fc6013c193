export { createDeskClient } from './client.ts';
export type {
  DeskClient,
  DeskClientOptions,
  WorkPage,
  WorkItem,
  WorkFilters,
  WorkId,
  Arrangement,
  DeskEvent,
  ActivityEntry,
  CompleteBody,
  SnoozeBody,
  NoteBody,
} from './client.ts';
export { DeskApiError, DeskConnectionError } from './errors.ts';
export type { AnswerInfo, CallOptions, Fetch, ReadOptions, RetryOptions, TimeoutOptions } from './transport.ts';
export type { paths } from './generated/desk-api.ts';
export type { AnswerOf, BodyOf, DataOf, ErrorCode, IdOf, QueryOf } from './types.ts';
