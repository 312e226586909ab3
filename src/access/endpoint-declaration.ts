import { LIMITS } from '../spec/limits.js';
import { MEDIA_TYPES } from '../spec/media-types.js';
import type { AuthMode } from './auth-modes.js';
import type { ScopeDeclaration } from './scope-rules.js';

/** 4.1: how an agent declares an HTTP endpoint. */
export interface HttpEndpointDeclaration {
  /** Relative to the agent's base path, starting with `/`; parameters are written `:<param>`. */
  readonly path: string;
  /** Upper case: GET, POST, PUT, PATCH, DELETE... */
  readonly method: string;
  /** 5.4: `all` or none, `user`, `owner`, `admin`, `group:<name>`, or a list (any one entry admits). */
  readonly scopes?: ScopeDeclaration;
  /** 5.4: the TypeScript auth mode, applied before the scopes; `public` by default. */
  readonly auth?: AuthMode;
  readonly description?: string;
  /** The response's content type, for example text/event-stream. */
  readonly contentType?: string;
  /** Media types a request body may carry; application/json by default. */
  readonly accepts?: readonly string[];
  /** A cap below the platform ceiling of 50 MiB (section 8); larger values are lowered to the ceiling. */
  readonly maxBodyBytes?: number;
}

/** 4.1: a WebSocket endpoint takes the same scope declaration, checked before the handshake completes. */
export interface SocketEndpointDeclaration {
  readonly path: string;
  readonly scopes?: ScopeDeclaration;
  readonly auth?: AuthMode;
  readonly description?: string;
}

export const DEFAULT_ACCEPTED_MEDIA_TYPES: readonly string[] = Object.freeze([MEDIA_TYPES.json]);

/** The body cap that applies to an endpoint: its own when smaller, else the platform ceiling (section 8). */
export function bodyCapOf(declaration: Pick<HttpEndpointDeclaration, 'maxBodyBytes'>): number {
  const ceiling = LIMITS.declaredEndpointBody.value;
  const own = declaration.maxBodyBytes;
  return own !== undefined && Number.isSafeInteger(own) && own >= 0 && own < ceiling ? own : ceiling;
}

/** Methods that carry no request body, so no Content-Type is asked of them. */
const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

export function methodTakesBody(method: string): boolean {
  return !BODYLESS_METHODS.has(method.toUpperCase());
}
