export * from './record.js';
export * from './step.js';
export * from './wallet.js';
export * from './settle.js';
