import { HEADERS } from '../../../spec/headers.js';
import { isCallAnswer, type SaleOutcome } from './answer.js';
import { decideSale } from './decide.js';
import type { SaleGuard } from './guards.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';

/**
 * Who called, as the platform's verifier decided it (5.2, 5.3). A priced resource answers a refused signed
 * request or bearer exactly as the verifier says (7.4: a 401 on a paid surface carries the verifier's
 * error_code and error_description); a caller with neither is unidentified and may buy a single call (402
 * sized to the call instead of a 401).
 */
export type SaleCaller =
  | {
      readonly kind: 'refused';
      readonly status: number;
      /** The verifier's header fields, Content-Type among them (verifier Refusal.headers). */
      readonly headers: Readonly<Record<string, string>>;
      readonly body: unknown;
    }
  | { readonly kind: 'unidentified' }
  | {
      readonly kind: 'agent';
      readonly agentUrl: string;
      /** Signed (then only covered headers count) or a platform bearer. */
      readonly signed: boolean;
      /** Covered components of the signature, lower-case; empty for a bearer. */
      readonly coveredHeaders: readonly string[];
      /** The signing identity (key set URL or key thumbprint), for 7.4 metered_principal_cap. */
      readonly identity?: string;
    };

export interface SaleCallInput {
  readonly request: Request;
  readonly caller: SaleCaller;
  readonly clientAddress: string;
  /** The body as already read (the platform reads it once, for the verifier); read from the request when absent. */
  readonly body?: Uint8Array | null;
}

export interface SaleRouteOptions {
  readonly ports: SalePorts;
  /** The resource's sale; a function is read on every call, so a switch flipped between calls takes effect at once. */
  readonly config: SaleConfig | (() => SaleConfig);
  /** The order of guards (SALE_GUARDS by default), read on every call. */
  readonly guards?: () => readonly SaleGuard[];
}

const encoder = new TextEncoder();

/** A sale outcome as a WHATWG Response: the call's own body bytes, or the 7.4 answer's JSON. */
export function renderSaleOutcome(outcome: SaleOutcome): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(outcome.headers)) headers.set(name, value);
  if (isCallAnswer(outcome)) return new Response(outcome.body, { status: outcome.status, headers });
  // Every 7.4 answer names its Content-Type (answers.ts).
  const bytes = encoder.encode(JSON.stringify(outcome.body));
  headers.set(HEADERS.contentLength, String(bytes.byteLength));
  return new Response(bytes, { status: outcome.status, headers });
}

/**
 * A priced single-call resource as a handler: the verifier's verdict and the request in, the Response out.
 * The resource path is the request's path; it must be the one the config sells.
 */
export function saleRoute(options: SaleRouteOptions): (input: SaleCallInput) => Promise<Response> {
  const configOf = typeof options.config === 'function' ? options.config : () => options.config as SaleConfig;
  return async ({ request, caller, clientAddress, body }) => {
    if (caller.kind === 'refused') {
      const headers = new Headers();
      for (const [name, value] of Object.entries(caller.headers)) headers.set(name, value);
      return new Response(JSON.stringify(caller.body), { status: caller.status, headers });
    }
    const read = async () => (request.body === null ? null : new Uint8Array(await request.arrayBuffer()));
    const bytes = body !== undefined ? body : await read();
    const agent = caller.kind === 'agent' ? caller : null;
    const input: SaleRequest = {
      buyer: agent === null ? null : { agentUrl: agent.agentUrl },
      signed: agent?.signed ?? false,
      coveredHeaders: agent?.coveredHeaders ?? [],
      headers: Object.fromEntries(request.headers),
      now: options.ports.clock.now(),
      resource: new URL(request.url).pathname,
      clientAddress,
      identity: agent?.identity,
      body: bytes,
    };
    return renderSaleOutcome(await decideSale(input, options.ports, configOf(), options.guards?.()));
  };
}
