import { storeOutageAnswer } from './store-outage.js';
import { reportError, type ErrorHook } from './error-hook.js';
import type { JSONWebKeySet } from 'jose';
import type { Ed25519PrivateJwk } from '../httpsig/index.js';
import { createMemoryPorts, type MemoryPorts } from '../verifier/memory-ports.js';
import type { Clock, DocumentFetcher, VerifierPorts } from '../verifier/ports.js';
import type { VerifierConfig } from '../verifier/types.js';
import type { PurchaseConfig } from '../purchase/index.js';
import { serviceNaming } from '../spec/naming.js';
import { cliTokenRoute } from './cli-token.js';
import { createWidgetService, type WidgetService, type WidgetServiceOptions } from './widgets/index.js';
import { platformMcpRoute } from './mcp/mcp-route.js';
import {
  createReferencePurchases,
  mppCreditsRoute,
  paidRails,
  pricedResourceRoute,
  type MemoryPurchaseStores,
  type PurchaseStores,
  type PurchaseStoresFactory,
  type RailPrices,
  type ReferencePurchases,
} from './purchases.js';
import { keyDirectoryRoute, type HostedAgentKey, type HostedAgentKeys } from './key-directory.js';
import { createPlatformTokenIssuer, type PlatformTokenIssuer } from './platform-token.js';
import { errorAnswer, type PlatformAnswer, render, renderAnswer, toResponse } from './render.js';
import { decideUpgrade, type SocketRoute, type UpgradeDecision } from './upgrade.js';
import { PLATFORM_ERROR_CODES, RouteTable, type Route } from './routes.js';

export interface ReferencePlatformOptions<P extends VerifierPorts = MemoryPorts, T extends PurchaseStores = MemoryPurchaseStores> {
  /** The platform's own host, e.g. "platform.example" or "127.0.0.1:8787" (what signatures must name). */
  readonly authority: string;
  /** The platform origin, the `iss` of its tokens; `https://<authority>` by default. */
  readonly origin?: string;
  /** Seconds; the system clock by default. Ignored when `ports` is given (its clock is used). */
  readonly clock?: Clock;
  /** Reads agents' key sets and cards; required unless `ports` is given. */
  readonly fetcher?: DocumentFetcher;
  /** The verifier's ports; in-memory stores around `clock` and `fetcher` by default. */
  readonly ports?: P;
  /** Ed25519 private JWK the platform signs its bearer tokens with; generated when absent. */
  readonly platformTokenKey?: Ed25519PrivateJwk;
  /** The agent-use scope (5.3); "agent" by default. */
  readonly agentScope?: string;
  /** The `iss` the platform writes into its tokens and requires of bearers; `origin` by default. */
  readonly tokenIssuer?: string;
  /** Further public keys whose tokens verify as platform tokens (another signer of the same platform, e.g. vectors' fixed key). */
  readonly acceptedTokenKeys?: JSONWebKeySet;
  /** Public JWKs of the agents this server hosts, for the key directory (2.4). */
  readonly hostedAgentKeys?: HostedAgentKeys;
  /** Operator platform keys accepted in X-Service-Owner-Key (5.2 key continuity). */
  readonly ownerKeys?: readonly string[];
  /** Agent URLs refused with credential_refused. */
  readonly blockedAgents?: readonly string[];
  /** Accept plain-http agent URLs (`--allow-insecure-fixtures`; never on by default). */
  readonly allowInsecureAgentUrls?: boolean;
  /** Routes added after the platform's own (they may not shadow them). */
  readonly routes?: readonly Route[];
  /** WebSocket endpoints. */
  readonly sockets?: readonly SocketRoute[];
  /** The purchase machine's configuration (4.7, 7.4) over the reference defaults; false: no paid routes. */
  readonly purchases?: Partial<PurchaseConfig> | false;
  /** The purchase machine's stores (a database, src/stores/); in memory by default. The faults of `mutants` act on the memory ones only. */
  readonly purchaseStores?: PurchaseStoresFactory<T>;
  /** The widget routes (4.4, 4.5: publish, catalog, MCP Apps) over these options; false: not mounted. */
  readonly widgets?: WidgetServiceOptions | false;
  /** The rails that spend purchased usage (LLM completions, the agent socket), at these prices; false: not mounted. */
  readonly paidRails?: Partial<RailPrices> | false;
  /** Named faults switched on in this deployment (docs/architecture.md; the catalogue is src/mutants/). Never set in production. */
  readonly mutants?: readonly PlatformFault[];
  /** Called with every exception the platform catches while answering (it still answers 500). */
  readonly onError?: ErrorHook;
  /**
   * The name this deployment writes where the spec writes Service (`serve --service-name`): its header names
   * (`Acme-Terms-Version`, `X-Acme-Owner-Key`, ...) and its 401 realm (src/spec/naming.ts). The spec's own by default.
   */
  readonly serviceName?: string;
}

/** What a request looked like, for a fault that rewrites the answer to it. */
export interface FaultRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array | null;
}

/**
 * One fault of a mutant deployment (docs/architecture.md), applied where the platform is composed: on the verifier's
 * ports and configuration, on the purchase machine, and on every answer.
 */
export interface PlatformFault {
  readonly ports?: (ports: VerifierPorts) => VerifierPorts;
  readonly config?: (config: VerifierConfig) => VerifierConfig;
  readonly purchases?: (purchases: ReferencePurchases) => void;
  /** Changes the WebSocket endpoints once every one is mounted (the agent socket's frames). */
  readonly sockets?: (sockets: SocketRoute[]) => void;
  readonly answer?: (request: FaultRequest, response: Response) => Response | Promise<Response>;
  /** Routes the platform should not serve, added to its table (a route of the agents' or of an authority's, 4.3). */
  readonly routes?: readonly Route[];
  /** Changes the widget service's options (its publish store, 4.4 and 4.5). */
  readonly widgets?: (options: WidgetServiceOptions) => WidgetServiceOptions;
  /** Changes the hosted agents' keys the key directory lists (2.4). */
  readonly hostedAgentKeys?: (keys: readonly HostedAgentKey[]) => readonly HostedAgentKey[];
}

export interface RequestInfo {
  /** The network address of the client (failed-signature counts are kept per address). */
  readonly clientAddress: string;
  /**
   * Fault injection (docs/architecture.md): behave as a platform route that reads the body before verification.
   * The body is read and dropped first, so the verifier can evaluate nothing (7.3 request_body_consumed).
   */
  readonly bodyConsumed?: boolean;
}

export interface ReferencePlatform<P extends VerifierPorts = MemoryPorts, T extends PurchaseStores = MemoryPurchaseStores> {
  /** The deployment as a WHATWG fetch handler. Never rejects. */
  fetch(request: Request, info: RequestInfo): Promise<Response>;
  /** The same answer as `fetch`, left as the platform rendered it where it did (what `serve` writes). Never rejects. */
  answer(request: Request, info: RequestInfo): Promise<PlatformAnswer>;
  readonly authority: string;
  readonly origin: string;
  readonly ports: P;
  readonly config: VerifierConfig;
  readonly tokens: PlatformTokenIssuer;
  /** Add routes here (purchases, MCP, widgets, the reference agent). */
  readonly routes: RouteTable;
  /** WebSocket endpoints; add them here (the agent socket and others). */
  readonly sockets: SocketRoute[];
  /** The purchase machine behind the paid routes (its ports take faults), unless purchases are off. */
  readonly purchases: ReferencePurchases<T> | undefined;
  /** The widget service behind the widget routes (its records and tool-call ledger), unless widgets are off. */
  readonly widgets: WidgetService | undefined;
  /** Decides a WebSocket upgrade before the handshake: accept it, or the HTTP answer that refuses it. */
  upgrade(request: Request, info: RequestInfo): Promise<UpgradeDecision>;
}

const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };

/** The keys the directory lists, read on every request, through any fault of them. */
function directoryKeys(keys: HostedAgentKeys, faults: readonly PlatformFault[]): HostedAgentKeys {
  const changes = faults.flatMap((f) => (f.hostedAgentKeys ? [f.hostedAgentKeys] : []));
  if (changes.length === 0) return keys;
  return () => changes.reduce((listed, change) => change(listed), typeof keys === 'function' ? keys() : keys);
}

/** The host as RFC 9421 @authority derives it: lower case, the origin scheme's default port dropped. */
function normalisedAuthority(authority: string, origin: string): string {
  const scheme = new URL(origin).protocol;
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}//${authority}`);
  } catch {
    throw new TypeError(`authority ${JSON.stringify(authority)} is not a host such as platform.example or 127.0.0.1:8787`);
  }
  if (parsed.host === '' || parsed.username || parsed.password || `${parsed.pathname}${parsed.search}${parsed.hash}` !== '/') {
    throw new TypeError(`authority ${JSON.stringify(authority)} is not a host such as platform.example or 127.0.0.1:8787`);
  }
  return parsed.host;
}

/**
 * The reference platform (docs/architecture.md): every verified route runs the reference verifier on the
 * request as received, body included, before anything else. Routes: POST /api/auth/cli/token (4.7) and the
 * public key directory (2.4). Any other path is 404, after the verifier refused whatever credential the request
 * carried (a signed request that does not verify is 401 wherever it is sent).
 */
export function createReferencePlatform<P extends VerifierPorts = MemoryPorts, T extends PurchaseStores = MemoryPurchaseStores>(
  options: ReferencePlatformOptions<P, T>,
): ReferencePlatform<P, T> {
  const origin = (options.origin ?? `https://${options.authority}`).replace(/\/+$/, '');
  const authority = normalisedAuthority(options.authority, origin);
  let ports: P;
  if (options.ports) {
    ports = options.ports;
  } else {
    if (!options.fetcher) throw new TypeError('createReferencePlatform needs a fetcher (or ports)');
    ports = createMemoryPorts(options.clock ?? systemClock, options.fetcher) as VerifierPorts as P;
  }
  const faults = options.mutants ?? [];
  for (const fault of faults) if (fault.ports) ports = fault.ports(ports) as P;
  const tokens = createPlatformTokenIssuer({
    issuer: options.tokenIssuer ?? origin,
    clock: ports.clock,
    ...(options.platformTokenKey ? { privateJwk: options.platformTokenKey } : {}),
    ...(options.agentScope ? { agentScope: options.agentScope } : {}),
  });
  const naming = options.serviceName === undefined ? undefined : serviceNaming(options.serviceName);
  let config: VerifierConfig = {
    authority,
    ...(naming ? { naming } : {}),
    ...(options.ownerKeys ? { ownerKeys: options.ownerKeys } : {}),
    ...(options.blockedAgents ? { blockedAgents: options.blockedAgents } : {}),
    platformToken: options.acceptedTokenKeys
      ? { ...tokens.verifierConfig, keys: { keys: [...tokens.publicKeys.keys, ...options.acceptedTokenKeys.keys] } }
      : tokens.verifierConfig,
    ...(options.allowInsecureAgentUrls ? { allowInsecureAgentUrls: true } : {}),
  };
  for (const fault of faults) if (fault.config) config = fault.config(config);
  const sockets: SocketRoute[] = [...(options.sockets ?? [])];
  const purchases =
    options.purchases === false
      ? undefined
      : createReferencePurchases<T>({
          origin,
          clock: ports.clock,
          // The operator keys that continue a key (5.2) also claim an ownerless agent at its purchase cap (7.4).
          config: { ...(naming ? { naming } : {}), ...(options.ownerKeys ? { ownerKeys: options.ownerKeys } : {}), ...options.purchases },
          ...(options.purchaseStores ? { stores: options.purchaseStores } : {}),
        });
  if (purchases && faults.some((f) => f.purchases) && options.purchaseStores)
    throw new TypeError('the faults of the purchase machine act on its in-memory stores only');
  // Without purchaseStores, T is the memory stores the faults are written against.
  if (purchases) for (const fault of faults) fault.purchases?.(purchases as ReferencePurchases<PurchaseStores> as ReferencePurchases);
  const answerFaults = faults.flatMap((f) => (f.answer ? [f.answer] : []));
  const rails = purchases && options.paidRails !== false ? paidRails(purchases, origin, options.paidRails ?? {}) : undefined;
  if (rails) sockets.push(rails.socket);
  for (const fault of faults) fault.sockets?.(sockets);
  const widgets =
    options.widgets === false
      ? undefined
      : createWidgetService(faults.reduce<WidgetServiceOptions>((o, f) => f.widgets?.(o) ?? o, { clock: ports.clock, ...options.widgets }));
  const routes = new RouteTable([
    cliTokenRoute(tokens),
    keyDirectoryRoute(directoryKeys(options.hostedAgentKeys ?? [], faults)),
    ...(purchases ? [mppCreditsRoute(purchases), pricedResourceRoute(purchases)] : []),
    ...(rails ? [rails.llm, platformMcpRoute(rails.delegate)] : []),
    ...(widgets?.routes ?? []),
    ...faults.flatMap((f) => f.routes ?? []),
    ...(options.routes ?? []),
    // Last: a mounted agent's own paths under /agents/<name> come first.
    ...(widgets ? [widgets.agentRoute] : []),
  ]);

  const answer = async (request: Request, info: RequestInfo): Promise<PlatformAnswer> => {
    try {
      const copy = answerFaults.length ? request.clone() : undefined;
      if (info.bodyConsumed && request.body && !request.bodyUsed) await request.arrayBuffer();
      const answered = await routes.dispatch(request, info.clientAddress, {
        ports,
        config,
        ...(info.bodyConsumed ? { bodyConsumed: true } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      });
      if (!copy) return answered;
      const seen: FaultRequest = {
        method: copy.method,
        url: copy.url,
        headers: copy.headers,
        body: copy.body ? new Uint8Array(await copy.arrayBuffer()) : null,
      };
      let response = toResponse(answered);
      for (const fault of answerFaults) response = await fault(seen, response);
      return response;
    } catch (error) {
      reportError(options.onError, error, `${request.method} ${request.url}`);
      return storeOutageAnswer(error) ?? render(errorAnswer(500, PLATFORM_ERROR_CODES.internal, 'The platform failed while answering this request.'));
    }
  };

  return {
    authority,
    origin,
    ports,
    config,
    tokens,
    routes,
    sockets,
    purchases,
    widgets,
    async upgrade(request, info) {
      try {
        return await decideUpgrade(sockets, request, info.clientAddress, { ports, config });
      } catch (error) {
        reportError(options.onError, error, `upgrade ${new URL(request.url).pathname}`);
        return {
          refuse:
            storeOutageAnswer(error) ?? renderAnswer(errorAnswer(500, PLATFORM_ERROR_CODES.internal, 'The platform failed while answering this upgrade.')),
        };
      }
    },
    async fetch(request, info) {
      return toResponse(await answer(request, info));
    },
    answer,
  };
}
