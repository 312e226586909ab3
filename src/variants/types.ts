import type { Deviation } from '../mutants/types.js';
import type { ReadingId } from '../spec/readings.js';

/**
 * A conformant variant: the reference deployment making another choice the spec allows (src/spec/readings/).
 * The self-test runs every check naming one of `requirements` against it, and each must pass: a check that
 * fails a variant fails a conformant deployment, a false fail.
 */
export interface Variant extends Deviation {
  /** The readings whose other allowed choice it makes. */
  readonly readings: readonly ReadingId[];
  /** Checks naming any of these requirements are run against it. */
  readonly requirements: readonly string[];
}
