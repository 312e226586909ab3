import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: every temporary file of a test run (the tests' own folders, the CLI's reports, the stores'
 * data directories, spawned processes' caches) goes under one folder of its own, made here and removed when the run
 * ends, so a run leaves nothing in the system's temporary directory. Workers and child processes inherit TMPDIR,
 * which os.tmpdir() reads.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'apc-tests-'));
  // Traversable by others: PostgreSQL's initdb runs as its own user inside a folder made here (tests/stores/servers.ts).
  chmodSync(root, 0o711);
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
