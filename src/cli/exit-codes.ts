/** docs/contracts.md section 1: the same exit codes for every command. */
export const EXIT = Object.freeze({
  ok: 0,
  expectationFailed: 1,
  usage: 2,
  harness: 3,
});

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
