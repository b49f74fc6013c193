// Each request must read every commit made before it arrived (a key revoked a moment ago is
// refused), so the store is asked what has changed after each request arrives. Asking costs a
// system call or two on SQLite and a round trip on PostgreSQL; requests that arrive together
// share one asking, made after the last of them arrived (P-speed-9).

/**
 * `read` done once for every call made before the next check phase of the event loop: all the
 * requests that arrived in one poll phase share it, and a call made after it ran waits for the
 * next. For a read that costs nothing but a system call or two (SQLite).
 */
export function askOncePerTurn<T>(read: () => T): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= new Promise<T>((resolve, reject) =>
      setImmediate(() => {
        pending = null;
        try {
          resolve(read());
        } catch (err) {
          reject(err);
        }
      }),
    );
    return pending;
  };
}

/**
 * `ask` sent at most once at a time. A call made while no asking is under way sends one; a call
 * made while one is under way waits for the next, sent as soon as that one returns and shared
 * by every call made in the meantime. For an asking that is a round trip (PostgreSQL).
 */
export function askOneAtATime<T>(ask: () => Promise<T>): () => Promise<T> {
  let sent: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const send = (): Promise<T> => {
    const p = ask();
    sent = p;
    const clear = () => {
      if (sent === p) sent = null;
    };
    p.then(clear, clear);
    return p;
  };
  return () => {
    if (!sent) return send();
    next ??= sent
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = null;
        return send();
      });
    return next;
  };
}
