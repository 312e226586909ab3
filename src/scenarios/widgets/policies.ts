import type { CspListName } from '../../spec/widgets.js';

export interface PolicyScenario {
  readonly id: string;
  readonly comment: string;
  readonly csp: { readonly [L in CspListName]?: readonly unknown[] };
  /** The Content-Security-Policy value, written out by hand. */
  readonly policy: string;
  readonly fallback: boolean;
  readonly openLinkAllowlist: readonly string[];
  /** JSON pointers of the rejected entries. */
  readonly rejected: readonly string[];
  readonly flags: readonly string[];
}

/** The restrictive default: MCP Apps' default plus frame-src, object-src and base-uri written out. */
export const DEFAULT_POLICY_TEXT =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

export const POLICY_SCENARIOS: readonly PolicyScenario[] = [
  {
    id: 'no-lists',
    comment: 'no CSP lists: the default policy, not a fallback',
    csp: {},
    policy: DEFAULT_POLICY_TEXT,
    fallback: false,
    openLinkAllowlist: [],
    rejected: [],
    flags: ['Merge'],
  },
  {
    id: 'all-four',
    comment: 'each list extends its directives with https origins (and wss for connect-src); redirectDomains is the openLink allowlist',
    csp: {
      connectDomains: ['api.example.com'],
      resourceDomains: ['cdn.example.com'],
      frameDomains: ['embed.example.com'],
      redirectDomains: ['docs.example.com'],
    },
    policy:
      "default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com; style-src 'self' 'unsafe-inline' https://cdn.example.com; img-src 'self' data: https://cdn.example.com; media-src 'self' data:; connect-src https://api.example.com wss://api.example.com; frame-src https://embed.example.com; object-src 'none'; base-uri 'self'",
    fallback: false,
    openLinkAllowlist: ['docs.example.com'],
    rejected: [],
    flags: ['Merge'],
  },
  {
    id: 'duplicates',
    comment: 'a domain listed twice appears once',
    csp: { connectDomains: ['api.example.com', 'api.example.com', 'ws.example.com'] },
    policy:
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src https://api.example.com wss://api.example.com https://ws.example.com wss://ws.example.com; frame-src 'none'; object-src 'none'; base-uri 'self'",
    fallback: false,
    openLinkAllowlist: [],
    rejected: [],
    flags: ['Merge'],
  },
  {
    id: 'redirect-only',
    comment: 'redirectDomains changes no directive',
    csp: { redirectDomains: ['docs.example.com', 'help.example.com'] },
    policy: DEFAULT_POLICY_TEXT,
    fallback: false,
    openLinkAllowlist: ['docs.example.com', 'help.example.com'],
    rejected: [],
    flags: ['Merge'],
  },
  {
    id: 'one-ip-falls-back',
    comment: 'one IP literal among good entries: the whole bundle gets the default policy and no openLink allowlist',
    csp: { connectDomains: ['api.example.com', '127.1'], resourceDomains: ['cdn.example.com'], redirectDomains: ['docs.example.com'] },
    policy: DEFAULT_POLICY_TEXT,
    fallback: true,
    openLinkAllowlist: [],
    rejected: ['/_meta/ui/csp/connectDomains/1'],
    flags: ['Fallback', 'IpLiteral'],
  },
  {
    id: 'redirect-wildcard-falls-back',
    comment: 'a rejected redirectDomains entry also makes the whole bundle fall back',
    csp: { resourceDomains: ['cdn.example.com'], redirectDomains: ['*.example.com'] },
    policy: DEFAULT_POLICY_TEXT,
    fallback: true,
    openLinkAllowlist: [],
    rejected: ['/_meta/ui/csp/redirectDomains/0'],
    flags: ['Fallback', 'Wildcard'],
  },
  {
    id: 'every-rejection-reported',
    comment: 'every rejected entry is reported, in list order',
    csp: { connectDomains: ['data:'], resourceDomains: ["'unsafe-inline'", 'cdn.example.com'], frameDomains: ['https://embed.example.com'] },
    policy: DEFAULT_POLICY_TEXT,
    fallback: true,
    openLinkAllowlist: [],
    rejected: ['/_meta/ui/csp/connectDomains/0', '/_meta/ui/csp/resourceDomains/0', '/_meta/ui/csp/frameDomains/0'],
    flags: ['Fallback', 'Scheme', 'Keyword'],
  },
  {
    id: 'not-a-string',
    comment: 'an entry that is not a string is rejected like any other',
    csp: { connectDomains: [42] },
    policy: DEFAULT_POLICY_TEXT,
    fallback: true,
    openLinkAllowlist: [],
    rejected: ['/_meta/ui/csp/connectDomains/0'],
    flags: ['Fallback'],
  },
];
