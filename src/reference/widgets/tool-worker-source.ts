/**
 * The program of a tool worker thread, started with `new Worker(TOOL_WORKER_SOURCE, { eval: true })`: plain
 * CommonJS text rather than a file, so it runs the same from src/ under tsx or vitest and from the compiled dist/.
 *
 * Protocol: the thread posts `{ ready: true }` once; then for each `{ tool, file, source, argsText }` it receives it
 * posts `{ outcome: 'returned', text }` (the value as JSON text), `{ outcome: 'threw', text }` (the function threw or
 * rejected, with its message) or `{ outcome: 'failed', text }` (the source could not be run at all).
 *
 * Each call gets a fresh node:vm context with string code generation off and nothing of the host in it: no require,
 * process, timers or Buffer. What is removed from it, and why:
 * - ArrayBuffer, SharedArrayBuffer, the typed arrays, DataView, Atomics and WebAssembly: their memory lies outside the
 *   JS heap, where the thread's resourceLimits do not reach;
 * - FinalizationRegistry: its callbacks would run the tool's code after its call answered, during another's.
 *
 * The only host value inside the context is `__report`, an arrow function (no `prototype`) with a null prototype,
 * so `__report.constructor` cannot lead to the thread's Function and from there to its process. The host never
 * awaits or reads a value of the context: the wrapper hands back primitives through `__report`. The answer is
 * posted from setImmediate, which runs only once the microtasks the tool left behind have drained, so a thread
 * still busy with the tool's work never answers and is terminated at the deadline instead of taking the next call.
 */
export const TOOL_WORKER_SOURCE = `'use strict';
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');

const REMOVED = ['ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'WebAssembly', 'FinalizationRegistry',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
const PREAMBLE = new vm.Script(REMOVED.map((name) => 'delete globalThis.' + name + ';').join('\\n'));

function wrap(source) {
  return [
    '(async () => {',
    '  const module = { exports: {} };',
    '  (function (module, exports) {',
    source,
    '  })(module, module.exports);',
    "  const fn = typeof module.exports === 'function' ? module.exports : module.exports && module.exports.default;",
    "  if (typeof fn !== 'function') throw new TypeError('the source assigns no function to module.exports');",
    '  const value = await fn(JSON.parse(__args));',
    '  return JSON.stringify(value === undefined ? null : value);',
    '})().then(',
    "  (text) => __report('returned', text),",
    "  (error) => __report('threw', String(error && error.message !== undefined ? error.message : error)),",
    ');',
    'undefined;',
  ].join('\\n');
}

// A tool's stray rejected promise is its own affair; it must not end the thread.
process.on('unhandledRejection', () => {});

parentPort.on('message', ({ tool, file, source, argsText }) => {
  let answered = false;
  const answer = (outcome, text) => {
    if (answered) return;
    answered = true;
    setImmediate(() => parentPort.postMessage({ outcome, text }));
  };
  const report = (outcome, text) => {
    if (typeof text !== 'string') answer('threw', 'the function returned no JSON value');
    else if (outcome === 'returned' || outcome === 'threw') answer(outcome, text);
  };
  Object.setPrototypeOf(report, null);
  try {
    const sandbox = Object.create(null);
    sandbox.__report = report;
    sandbox.__args = argsText;
    const context = vm.createContext(sandbox, { name: 'function ' + tool, codeGeneration: { strings: false, wasm: false } });
    PREAMBLE.runInContext(context);
    new vm.Script(wrap(source), { filename: file }).runInContext(context);
  } catch (error) {
    // Errors of the host (the source does not compile) are read; anything else came from the context and is not touched.
    answer('failed', error instanceof Error ? error.message : 'the source threw while it was set up');
  }
});

parentPort.postMessage({ ready: true });
`;
