import type { AddressRefusal } from './rules.js';

/** Raised by the vetted connector when no address of a host may be connected to. */
export class AddressRefusedError extends Error {
  constructor(readonly refusals: readonly AddressRefusal[]) {
    super(`refused addresses: ${refusals.map((refusal) => `${refusal.address} is ${refusal.range}`).join(' and ')}`);
    this.name = 'AddressRefusedError';
  }
}

/** Raised by the vetted connector when a host name does not resolve, or not in time. */
export class HostLookupError extends Error {
  constructor(
    readonly hostname: string,
    readonly code: string,
    readonly timedOut = false,
  ) {
    super(timedOut ? `looking up ${hostname} took too long` : `looking up ${hostname} failed (${code})`);
    this.name = 'HostLookupError';
  }
}
