export * from './pointer-rule.js';
