export * from './frames.js';
export * from './pointer.js';
export * from './validate.js';
