import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { AddressRefusedError, HostLookupError } from './connect-errors.js';
import { judgeAddress, type AddressRefusal, type FetchRules } from './rules.js';

export interface VettedConnectorOptions {
  readonly ca?: string | Buffer;
  /** Replaces the system resolver (tests point host names at loopback with it). */
  readonly lookup?: LookupFunction;
}

/**
 * An undici connector that only ever opens sockets to vetted addresses: it resolves the host name
 * itself, drops every address the rules refuse, hands undici the IP itself (so nothing resolves the
 * name a second time, which is what DNS rebinding relies on), and checks the socket's remote
 * address once connected. TLS still verifies the certificate against the host name.
 */
export function createVettedConnector(rules: FetchRules, options: VettedConnectorOptions = {}): buildConnector.connector {
  const connectToAddress = buildConnector({ timeout: rules.timeoutMs, ...(options.ca === undefined ? {} : { ca: options.ca }) });
  const lookup = options.lookup ?? dnsLookup;

  return (connectOptions, callback) => {
    const secure = connectOptions.protocol === 'https:';
    const port = Number(connectOptions.port) || (secure ? 443 : 80);

    const attempt = (addresses: readonly string[], index: number): void => {
      const address = addresses[index] ?? '';
      // `host` keeps the name, so undici still sends it as TLS server name and checks the certificate against it.
      connectToAddress({ ...connectOptions, hostname: address }, (error, socket) => {
        if (error) {
          if (index + 1 < addresses.length) return attempt(addresses, index + 1);
          return callback(error, null);
        }
        const remote = socket.remoteAddress;
        const refusal = judgeAddress(remote ?? 'an unknown address', port, secure, rules);
        if (refusal) {
          socket.destroy();
          return callback(new AddressRefusedError([refusal]), null);
        }
        callback(null, socket);
      });
    };

    resolve(connectOptions.hostname, lookup, rules.timeoutMs)
      .then((addresses) => attempt(vet(addresses, port, secure, rules), 0))
      .catch((error: Error) => callback(error, null));
  };
}

function vet(addresses: readonly string[], port: number, secure: boolean, rules: FetchRules): string[] {
  const refusals: AddressRefusal[] = [];
  const vetted = addresses.filter((address) => {
    const refusal = judgeAddress(address, port, secure, rules);
    if (refusal) refusals.push(refusal);
    return refusal === undefined;
  });
  if (vetted.length === 0) throw new AddressRefusedError(refusals);
  return vetted;
}

/** Every address of the host (an IP literal is its own), within the time limit. */
function resolve(hostname: string, lookup: LookupFunction, timeoutMs: number): Promise<string[]> {
  if (isIP(hostname)) return Promise.resolve([hostname]);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new HostLookupError(hostname, 'ETIMEOUT', true)), timeoutMs);
    timer.unref();
    const settle = (error: NodeJS.ErrnoException | null, result: unknown) => {
      clearTimeout(timer);
      const addresses = Array.isArray(result)
        ? result.map((entry: { address?: unknown }) => String(entry.address))
        : typeof result === 'string'
          ? [result]
          : [];
      if (error) reject(new HostLookupError(hostname, error.code ?? 'ENOTFOUND'));
      else if (addresses.length === 0) reject(new HostLookupError(hostname, 'ENODATA'));
      else resolvePromise(addresses);
    };
    try {
      lookup(hostname, { all: true }, settle);
    } catch (error) {
      settle(error as NodeJS.ErrnoException, undefined);
    }
  });
}
