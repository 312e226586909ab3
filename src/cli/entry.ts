import { main } from './main.js';

// Run from source: `tsx src/cli/entry.ts <command> ...` (the installed bin runs the built main.js). It exits as the bin
// does, once stdout and stderr have flushed: a test worker a Ctrl-C left half-stopped must not keep the run alive.
const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
