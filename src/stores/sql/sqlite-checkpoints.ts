import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Commits this connection makes before the checkpoints move to a thread of their own (a short-lived file never starts one). */
const COMMITS_BEFORE_THREAD = 256;
/** Commits between two checkpoints asked of the thread, and the longest a commit waits for one when writes stop. */
const COMMITS_PER_CHECKPOINT = 64;
const CHECKPOINT_EVERY_MS = 1000;
/**
 * A log copied back can start again from its beginning only once no commit came after the copy: under steady writes the
 * thread's copy never catches up, so past this many frames the connection copies the few frames written during the
 * thread's pass itself (small, and what lets its next commit start the log again).
 */
const CATCH_UP_FRAMES = 1000;

/**
 * The thread's code: its own connection to the file, running a PASSIVE checkpoint (which neither waits for nor blocks
 * the writer) each time it is asked, and answering when done. Plain CommonJS: a worker given code to evaluate.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let log = 0;
  try {
    log = checkpoint.get().log;
  } catch {
    // Busy or failing: the next checkpoint copies what this one did not.
  }
  parentPort.postMessage(log);
});
parentPort.postMessage('ready');
`;

export interface Checkpoints {
  /** Counts a commit of the connection (a write outside a transaction, or a transaction). */
  committed(): void;
  /** Ends the thread, if one was started (before the connection closes, which then checkpoints what is left). */
  close(): Promise<void>;
}

/**
 * WAL checkpoints off the event loop. SQLite copies the write-ahead log back into the database file when it has grown
 * 1000 pages, inside whichever commit crossed the line, and syncs both files: a stall of milliseconds every few dozen
 * purchases, in the middle of one of them (better-sqlite3 is synchronous), that cost the store bench about a tenth of its
 * rate. Past its first COMMITS_BEFORE_THREAD commits, the connection leaves checkpoints to a worker thread with a
 * connection of its own, asked every COMMITS_PER_CHECKPOINT commits (and once a second while any is left), and
 * turns its own automatic checkpoints off once that thread is ready; they come back on should the thread fail.
 *
 * Durability is unchanged: with synchronous=NORMAL a commit is in the log (written, not synced) when it returns, and
 * the log is synced at each checkpoint; a crash of the process loses nothing, a power loss what came after the last
 * checkpoint, as before (now at most COMMITS_PER_CHECKPOINT commits or a second, where it was up to 1000 pages).
 */
export function checkpointsOffTheEventLoop(file: string, busyTimeoutMs: number, connection: { automatic(on: boolean): void; catchUp(): void }): Checkpoints {
  let commits = 0;
  let sinceCheckpoint = 0;
  let thread: { worker: Worker; ready: boolean; running: boolean; timer: NodeJS.Timeout } | undefined;
  let closed = false;

  const ask = () => {
    if (thread === undefined || !thread.ready || thread.running || sinceCheckpoint === 0) return;
    thread.running = true;
    sinceCheckpoint = 0;
    thread.worker.postMessage('checkpoint');
  };

  const fail = () => {
    if (thread === undefined) return;
    clearInterval(thread.timer);
    if (thread.ready) connection.automatic(true);
    thread = undefined;
  };

  const start = () => {
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { file, busyTimeoutMs, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    worker.unref();
    const started = { worker, ready: false, running: false, timer: setInterval(ask, CHECKPOINT_EVERY_MS) };
    started.timer.unref();
    thread = started;
    worker.on('message', (message: 'ready' | number) => {
      if (thread !== started) return;
      if (message === 'ready') {
        connection.automatic(false);
        started.ready = true;
      } else {
        started.running = false;
        if (message >= CATCH_UP_FRAMES) connection.catchUp();
      }
      if (sinceCheckpoint >= COMMITS_PER_CHECKPOINT) ask();
    });
    worker.on('error', () => {
      if (thread === started) fail();
    });
    worker.on('exit', () => {
      if (thread === started) fail();
    });
  };

  return {
    committed() {
      sinceCheckpoint++;
      if (thread === undefined) {
        if (!closed && ++commits === COMMITS_BEFORE_THREAD) start();
      } else if (sinceCheckpoint >= COMMITS_PER_CHECKPOINT) ask();
    },
    async close() {
      closed = true;
      const ending = thread;
      if (ending === undefined) return;
      thread = undefined;
      clearInterval(ending.timer);
      const exited = new Promise<void>((resolve) => ending.worker.once('exit', () => resolve()));
      // Held open until it has ended (unreferenced, it would not keep the process alive to finish closing).
      ending.worker.ref();
      if (ending.ready) ending.worker.postMessage('close');
      else await ending.worker.terminate();
      await exited;
    },
  };
}
