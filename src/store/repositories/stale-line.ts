/**
 * Where something a process began and marked as under way (a run, a send) stops being under
 * way: past the instant the process that began it recorded, or, for one begun before such an
 * instant was recorded, begun before `legacyBefore` (the observing process's own limits).
 */
export interface StaleLine {
  now: string;
  legacyBefore: string;
}
