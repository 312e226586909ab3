import { readFileSync } from 'node:fs';

interface PeerAddressCase {
  address: string;
  public: boolean;
  always_blocked: boolean;
}

interface PeerAllowCase {
  entries: string[];
  address: string;
  port: number;
  allowed: boolean;
}

export interface PeerNetAddresses {
  addresses: PeerAddressCase[];
  allow_lists: PeerAllowCase[];
  bad_allow_entries: string[];
}

/** robutlerai/webagents' address cases (see peer-vectors/SOURCE.md). */
export const peerNetAddresses = JSON.parse(readFileSync(new URL('./peer-vectors/net-addresses.json', import.meta.url), 'utf8')) as PeerNetAddresses;
