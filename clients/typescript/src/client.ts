import type { BodyOf, DataOf, IdOf, QueryOf } from './types.ts';
import { createTransport, type CallOptions, type ReadOptions, type TransportOptions } from './transport.ts';

export type DeskClientOptions = TransportOptions;

export type WorkPage = DataOf<'/work', 'get'>;
export type WorkItem = WorkPage['items'][number];
export type WorkFilters = QueryOf<'/work', 'get'>;
export type WorkId = IdOf<'/work/{id}', 'get'>;
export type Arrangement = DataOf<'/arrangements', 'get'>['items'][number];
export type DeskEvent = DataOf<'/events', 'get'>['items'][number];
export type ActivityEntry = DataOf<'/activity', 'get'>['items'][number];
export type CompleteBody = BodyOf<'/work/{id}/complete', 'post'>;
export type SnoozeBody = BodyOf<'/work/{id}/snooze', 'post'>;
export type NoteBody = BodyOf<'/arrangements/{id}/notes', 'post'>;

/** The most /events and /activity give: at 200 the contract has no further page. */
const LOG_LIMIT = 200;
/** The biggest page /work gives, so a walk takes as few calls as it can. */
const WALK_LIMIT = 200;

const idPath = (id: WorkId | IdOf<'/arrangements/{id}/notes', 'post'>) => encodeURIComponent(String(id));

/**
 * A client for one desk's API, keyed by one API key. `baseUrl` is the API's root, ending in
 * `/api/v1`. Every method returns the answer's `data`, typed from the server's description; bad
 * news in a 200 (`delivered: false`, `ok: false`, `timed_out: true`, `drafted: false`) is data,
 * and only failures throw (`DeskApiError`, or `DeskConnectionError` when no answer came).
 */
export function createDeskClient(options: DeskClientOptions) {
  const call = createTransport(options);
  const get = <T>(path: string, query: object | undefined, options: ReadOptions | undefined) =>
    call<T>({ method: 'GET', path, query, timeout: 'default', write: false, options });
  const post = <T>(
    path: string,
    body: unknown,
    options: CallOptions | undefined,
    timeout: 'default' | 'run' | 'chat' = 'default',
  ) => call<T>({ method: 'POST', path, body, timeout, write: true, options });

  const work = {
    /** One page of the open queue; follow `next_cursor` as given, or use `all`. */
    list: (filters: WorkFilters = {}, options?: ReadOptions) => get<WorkPage>('/work', filters, options),
    /**
     * Every open row matching the filters, walking the cursors. Stops when `next_cursor` is null
     * or a cursor repeats (an unreadable cursor restarts the list), and yields each row once.
     */
    async *all(
      filters: Omit<WorkFilters, 'cursor'> = {},
      options?: ReadOptions,
    ): AsyncGenerator<WorkItem, void, undefined> {
      const seenCursors = new Set<string>();
      const seenRows = new Set<WorkItem['id']>();
      let cursor: string | null = null;
      for (;;) {
        const page: WorkPage = await work.list(
          { limit: WALK_LIMIT, ...filters, ...(cursor === null ? {} : { cursor }) },
          options,
        );
        for (const item of page.items) {
          if (seenRows.has(item.id)) continue;
          seenRows.add(item.id);
          yield item;
        }
        if (page.next_cursor === null || seenCursors.has(page.next_cursor)) return;
        seenCursors.add(page.next_cursor);
        cursor = page.next_cursor;
      }
    },
    get: (id: WorkId, options?: ReadOptions) => get<DataOf<'/work/{id}', 'get'>>(`/work/${idPath(id)}`, {}, options),
    /** Does what the row asks; `delivered: false` in the answer is news, not an error. */
    complete: (id: WorkId, body: CompleteBody = {}, options?: CallOptions) =>
      post<DataOf<'/work/{id}/complete', 'post'>>(`/work/${idPath(id)}/complete`, body, options),
    snooze: (id: WorkId, body: SnoozeBody = {}, options?: CallOptions) =>
      post<DataOf<'/work/{id}/snooze', 'post'>>(`/work/${idPath(id)}/snooze`, body, options),
    /** `drafted: false` with a reason means there was nothing true to say: do not retry. */
    draft: (id: WorkId, options?: CallOptions) =>
      post<DataOf<'/work/{id}/draft', 'post'>>(`/work/${idPath(id)}/draft`, undefined, options),
    /** Takes minutes (time-out 15 min by default); `ok: false` is the desk's report, not an error. */
    run: (id: WorkId, options?: CallOptions) =>
      post<DataOf<'/work/{id}/run', 'post'>>(`/work/${idPath(id)}/run`, undefined, options, 'run'),
  };

  const arrangements = {
    list: (filters: QueryOf<'/arrangements', 'get'> = {}, options?: ReadOptions) =>
      get<DataOf<'/arrangements', 'get'>>('/arrangements', filters, options),
    /** The arrangements are not paged: one call gives them all. */
    async *all(
      filters: QueryOf<'/arrangements', 'get'> = {},
      options?: ReadOptions,
    ): AsyncGenerator<Arrangement, void, undefined> {
      yield* (await arrangements.list(filters, options)).items;
    },
    addNote: (id: IdOf<'/arrangements/{id}/notes', 'post'>, body: NoteBody, options?: CallOptions) =>
      post<DataOf<'/arrangements/{id}/notes', 'post'>>(`/arrangements/${idPath(id)}/notes`, body, options),
  };

  // Newest first, and unpaged: `all` reads the most the desk gives (200 entries).
  const events = {
    list: (filters: QueryOf<'/events', 'get'> = {}, options?: ReadOptions) =>
      get<DataOf<'/events', 'get'>>('/events', filters, options),
    async *all(options?: ReadOptions): AsyncGenerator<DeskEvent, void, undefined> {
      yield* (await events.list({ limit: LOG_LIMIT }, options)).items;
    },
  };
  const activity = {
    list: (filters: QueryOf<'/activity', 'get'> = {}, options?: ReadOptions) =>
      get<DataOf<'/activity', 'get'>>('/activity', filters, options),
    async *all(options?: ReadOptions): AsyncGenerator<ActivityEntry, void, undefined> {
      yield* (await activity.list({ limit: LOG_LIMIT }, options)).items;
    },
  };

  return {
    /** The cheapest check that the key is good: its desk's id, no counts. */
    check: (options?: ReadOptions) => get<DataOf<'/', 'get'>>('/', {}, options),
    me: (options?: ReadOptions) => get<DataOf<'/me', 'get'>>('/me', {}, options),
    desk: (options?: ReadOptions) => get<DataOf<'/desk', 'get'>>('/desk', {}, options),
    units: (filters: QueryOf<'/units', 'get'> = {}, options?: ReadOptions) =>
      get<DataOf<'/units', 'get'>>('/units', filters, options),
    connections: (options?: ReadOptions) => get<DataOf<'/connections', 'get'>>('/connections', {}, options),
    permissions: (options?: ReadOptions) => get<DataOf<'/permissions', 'get'>>('/permissions', {}, options),
    domains: (options?: ReadOptions) => get<DataOf<'/domains', 'get'>>('/domains', {}, options),
    watches: (options?: ReadOptions) => get<DataOf<'/watches', 'get'>>('/watches', {}, options),
    work,
    arrangements,
    /** Up to four minutes; `timed_out: true` means no answer in time and nothing changed. */
    chat: (text: string, options?: CallOptions) =>
      post<DataOf<'/chat', 'post'>>('/chat', { text } satisfies BodyOf<'/chat', 'post'>, options, 'chat'),
    events,
    activity,
  };
}

export type DeskClient = ReturnType<typeof createDeskClient>;
