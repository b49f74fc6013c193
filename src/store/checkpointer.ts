import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

// A commit on SQLite appends its pages to the write-ahead log; now and then the log's pages are
// copied into the database file and synced (a checkpoint). By default the connection that
// commits does that itself, whenever the log has passed 1,000 pages: in the middle of a
// request, with every other request waiting. On a large desk, where each write touches pages
// of its own, that was a third of a write's cost. A server therefore checkpoints on a thread
// of its own, with its own connection (P-speed-10): the event loop only commits. What a crash
// or a power cut can lose is unchanged: the log is synced before its pages are copied, and the
// file after, exactly as the connection's own checkpoint does with `synchronous = NORMAL`.

/** How long after a write the thread checkpoints: at most this often, and never while idle. */
const EVERY_MS = 200;
/**
 * The committing connection still checkpoints once the log passes this many pages (about
 * 400 MB), with every request waiting. Under steady writes the log reaches it even with the
 * thread keeping up: SQLite starts the log again only when a write begins with all of it
 * copied, and each checkpoint ends behind the commits made while it ran. At 20,000 pages those
 * waits put a snooze's p99 at about 130 ms on a 1,000,000-row desk, against 30 ms (P-speed-13).
 */
const BACKSTOP_PAGES = 100_000;
/** What SQLite's connections do by default, and what this one goes back to if the thread ends. */
const DEFAULT_PAGES = 1_000;

// Plain JavaScript, so the thread starts the same from the compiled program, the sources and
// the tests. A checkpoint that cannot finish (a reader still on old pages) copies what it can,
// and the next one goes on from there.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
// A checkpoint reads the log's frames, not the page cache: a small one is enough.
db.pragma('cache_size = -256');
let timer = null;
const checkpoint = () => {
  timer = null;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ failed: String(err && err.message) });
  }
};
parentPort.on('message', (m) => {
  if (m === 'close') {
    if (timer) clearTimeout(timer);
    db.close();
    parentPort.close();
    return;
  }
  timer ??= setTimeout(checkpoint, workerData.everyMs);
});
`;

export interface Checkpointer {
  /** Called at each write: the thread checkpoints a moment later. */
  wrote(): void;
  /** Stops the thread and closes its connection, before the store's own connection closes. */
  close(): Promise<void>;
}

/** Moves the checkpoints of `sqlite`, a connection to `file`, to a thread of their own. */
export function checkpointApart(sqlite: SQLite.Database, file: string): Checkpointer {
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let thread: Worker | null = null;
  let ended = false;
  let lastPoke = 0;
  const start = (): Worker => {
    const w = new Worker(THREAD, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, everyMs: EVERY_MS },
      // The thread runs a dozen lines of JavaScript: its heap is kept small.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
    });
    // The thread never keeps the process alive, and if it ends, the connection checkpoints
    // for itself again.
    w.unref();
    w.on('error', () => undefined);
    w.on('exit', () => {
      ended = true;
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
    });
    return w;
  };
  return {
    wrote() {
      if (ended) return;
      const now = Date.now();
      if (now - lastPoke < EVERY_MS / 2) return;
      lastPoke = now;
      thread ??= start();
      thread.postMessage('poke');
    },
    async close() {
      if (!thread || ended) return;
      const done = new Promise<void>((resolve) => thread!.once('exit', () => resolve()));
      // Waited for, the thread must keep the process alive until it has ended: with nothing
      // else left to run (a server that could not listen, say), Node would otherwise exit
      // mid-close, saying nothing.
      thread.ref();
      thread.postMessage('close');
      await done;
    },
  };
}
