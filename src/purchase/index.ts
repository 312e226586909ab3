export * from './json.js';
export * from './canonical-json.js';
export * from './base64url-json.js';
export * from './auth-params.js';
export * from './challenge.js';
export * from './challenge-parse.js';
export * from './credential.js';
export * from './answers.js';
