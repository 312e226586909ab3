export * from './ports.js';
export * from './wire.js';
export * from './memory.js';
export * from './decide.js';
