/** The self-test's mutants: faults the in-process targets switch on, each caught by a named check. */
export type { Deviation, Mutant, PlatformFault } from './types.js';
export { activeDeviation } from './active.js';
export { MUTANTS, mutantCatalogueProblems } from './catalogue.js';
export { UNTESTABLE } from './untestable.js';
