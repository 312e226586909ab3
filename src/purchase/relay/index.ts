export * from './relay.js';
