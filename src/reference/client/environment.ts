import { readFileSync } from 'node:fs';
import type { ClientClock, ClientEnvironment } from './types.js';

/** The variables client mode sets for each case (docs/client-mode.md). */
export const CLIENT_VARIABLES = Object.freeze({
  platformUrl: 'APC_PLATFORM_URL',
  caseId: 'APC_CASE',
  requestUrl: 'APC_REQUEST_URL',
  requestMethod: 'APC_REQUEST_METHOD',
  requestBody: 'APC_REQUEST_BODY',
  requestContentType: 'APC_REQUEST_CONTENT_TYPE',
  cardToken: 'APC_CARD_TOKEN',
  allowedHosts: 'APC_ALLOWED_HOSTS',
  dailyCap: 'APC_DAILY_CAP',
  walletKey: 'APC_WALLET_KEY',
} as const);

/** A case's environment read from the process's variables (a client wrapper's first step); the body file is read whole. */
export function readClientEnvironment(env: Readonly<Record<string, string | undefined>>): ClientEnvironment {
  const need = (name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`${name} is not set: run this client through agent-platform-conformance run --client-command`);
    return value;
  };
  const bodyFile = env[CLIENT_VARIABLES.requestBody] ?? '';
  const contentType = env[CLIENT_VARIABLES.requestContentType];
  return {
    platformUrl: need(CLIENT_VARIABLES.platformUrl),
    caseId: need(CLIENT_VARIABLES.caseId),
    requestUrl: need(CLIENT_VARIABLES.requestUrl),
    requestMethod: need(CLIENT_VARIABLES.requestMethod),
    requestBody: bodyFile === '' ? new Uint8Array(0) : new Uint8Array(readFileSync(bodyFile)),
    requestContentType: contentType === undefined || contentType === '' ? undefined : contentType,
    cardToken: need(CLIENT_VARIABLES.cardToken),
    allowedHosts: (env[CLIENT_VARIABLES.allowedHosts] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    dailyCap: /^\d+$/.test(env[CLIENT_VARIABLES.dailyCap] ?? '') ? Number(env[CLIENT_VARIABLES.dailyCap]) : null,
    walletKey: env[CLIENT_VARIABLES.walletKey] || undefined,
  };
}

/** Real time: what a client in its own process waits by. */
export const SYSTEM_CLIENT_CLOCK: ClientClock = Object.freeze({
  nowMs: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))),
});
