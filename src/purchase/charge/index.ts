export * from './record.js';
export * from './step.js';
export * from './settle.js';
