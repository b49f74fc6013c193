// On SQLite a statement is answered without a break (the driver is synchronous), so long work
// in one process holds every request until it ends unless it lets them in as it goes.

/** A turn of the event loop for the process's other work (requests) before going on. */
export function letOthersIn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
