import { main } from './main.js';

// Run from source: `tsx src/cli/entry.ts <command> ...` (the installed bin runs the built main.js).
process.exitCode = await main(process.argv.slice(2));
