import { readTargetConfig } from '../../src/harness/target-config.js';
import type { Target } from '../../src/harness/target.js';
import { InProcessTarget } from '../../src/harness/targets/in-process.js';
import { LiveTarget } from '../../src/harness/targets/live.js';

/** The target this run checks: the embedded reference (default) or the live deployment the run names. */
export function suiteTarget(): Target {
  const config = readTargetConfig();
  return config.kind === 'live' ? new LiveTarget(config) : new InProcessTarget();
}
