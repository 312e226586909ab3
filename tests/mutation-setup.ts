import fc from 'fast-check';

/**
 * Stryker judges each mutant by the tests its dry run saw pass: with one seed for every property, a mutant's run draws
 * the inputs the dry run drew, so a verdict is the mutant's and never the draw's. `npm test` keeps a fresh seed a run.
 */
fc.configureGlobal({ seed: 27_011_129 });
