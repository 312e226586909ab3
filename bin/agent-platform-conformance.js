#!/usr/bin/env node
// The installed command: runs the build output of src/cli/main.ts (npm run build).
import { main } from '../dist/src/cli/main.js';

const code = await main(process.argv.slice(2));
// Exit only once stdout and stderr have flushed: writes to pipes are asynchronous on some platforms.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
