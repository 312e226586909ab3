import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** Why a CSP list entry is not a bare domain (2.5). */
export type DomainRejection =
  | 'not-a-string'
  | 'empty'
  | 'wildcard'
  | 'keyword'
  | 'scheme'
  | 'ip-literal'
  | 'port'
  | 'path'
  | 'userinfo'
  | 'not-ascii'
  | 'uppercase'
  | 'bad-character'
  | 'trailing-dot'
  | 'bad-label'
  | 'too-long'
  | 'single-label'
  | 'local-name'
  | 'numeric-last-label';

export type DomainVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: DomainRejection; readonly message: string };

const MAX_DOMAIN_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** A label the WHATWG IPv4 parser reads as a number: decimal, octal (leading 0) or hex (0x, even bare "0x"). */
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/i;
/** CSP keywords: anything quoted (keywords, nonces, hashes), and the keyword names written without quotes. */
const KEYWORD = /^'.*'?$|^(?:none|self|unsafe-[a-z-]*|strict-dynamic|report-sample|wasm-unsafe-eval|trusted-types-eval)$/is;
const SCHEME = /^([a-z][a-z0-9+.-]*):(.*)$/is;
const LOCAL_NAMES = /(?:^|\.)(?:localhost|local)$/;

/**
 * Whether `value` is a bare domain as 2.5 requires of every CSP list entry: lowercase ASCII labels of
 * letters, digits and inner hyphens, two or more of them, 253 characters at most, the last not a number.
 * An explicit grammar, checked on the raw string: the WHATWG URL parser rewrites too much (numeric hosts
 * to IPv4, percent-escapes, tabs, IDN) to be a validator. Total: never throws.
 */
export function checkBareDomain(value: unknown): DomainVerdict {
  if (typeof value !== 'string')
    return no(
      'not-a-string',
      `must be a domain name as a string, not ${typeof value === 'object' ? (value === null ? 'null' : 'an object') : `a ${typeof value}`}`,
    );
  const shown = JSON.stringify(value);
  if (value.trim() === '') return no('empty', 'is empty; write a domain name such as api.example.com or remove the entry');
  if (value.includes('*')) return no('wildcard', `${shown} has a wildcard; list every domain explicitly (wildcards are not allowed)`);
  if (KEYWORD.test(value)) return no('keyword', `${shown} is a CSP keyword; the host sets keywords itself, lists take domain names only`);
  if (looksLikeIp(value)) return no('ip-literal', `${shown} is an IP address; lists take domain names only (IP literals are never allowed)`);
  const scheme = SCHEME.exec(value);
  // "example.com:8080" also has the form scheme ":" rest; a rest of digits is a port, not a scheme-specific part.
  const portLike = scheme !== null && (/^[0-9]+(?:[/?#].*)?$/s.test(scheme[2]!) || (scheme[2] === '' && scheme[1]!.includes('.')));
  if (scheme && !portLike && scheme[2] === '') {
    return no('scheme', `${shown} is a scheme, not a domain; schemes such as data: and blob: are never allowed, lists take domain names only`);
  }
  if (scheme && !portLike) {
    return no('scheme', `${shown} has a scheme (${scheme[1]!.toLowerCase()}:); write the bare domain${suggestion(value)}`);
  }
  if (value.includes('@')) return no('userinfo', `${shown} has a user name part (@); write the bare domain${suggestion(value)}`);
  if (/[/?#\\]/.test(value)) return no('path', `${shown} has a path, query or fragment; write the bare domain${suggestion(value)}`);
  if (value.includes(':')) return no('port', `${shown} has a port; write the bare domain without :port${suggestion(value)}`);
  if (/[^\x00-\x7f]/.test(value)) {
    return no('not-ascii', `${shown} is not ASCII; write an internationalised name in its Punycode form (xn--...)`);
  }
  if (/[A-Z]/.test(value) && !/[^A-Za-z0-9.-]/.test(value))
    return no('uppercase', `${shown} has capital letters; write it in lowercase (${value.toLowerCase()})`);
  if (/[^a-z0-9.-]/.test(value)) return no('bad-character', `${shown} has characters a domain name cannot have; use only a-z, 0-9, '-' and '.'`);
  if (value.endsWith('.')) return no('trailing-dot', `${shown} ends with a dot; remove it (${value.replace(/\.+$/, '')})`);
  if (value.length > MAX_DOMAIN_LENGTH) return no('too-long', `is ${value.length} characters long; a domain name has at most ${MAX_DOMAIN_LENGTH}`);
  const labels = value.split('.');
  for (const label of labels) {
    const problem = labelProblem(label);
    if (problem) return no('bad-label', `${shown}: ${problem}`);
  }
  if (LOCAL_NAMES.test(value)) return no('local-name', `${shown} is a local name; lists take public domain names only`);
  if (labels.length < 2) return no('single-label', `${shown} is a single label; write a full domain name such as ${value}.example.com`);
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!))
    return no('numeric-last-label', `${shown} ends in a number; the last label of a domain name cannot be numeric`);
  if (value.includes('xn--') && domainToASCII(value) !== value) return no('bad-label', `${shown} has an xn-- label that is not valid Punycode`);
  // The grammar above already excludes every IP spelling; this only guards it (defence in depth).
  if (isIpHost(value)) return no('ip-literal', `${shown} is an IP address; lists take domain names only (IP literals are never allowed)`);
  return { ok: true };
}

export function isBareDomain(value: unknown): boolean {
  return checkBareDomain(value).ok;
}

function no(reason: DomainRejection, message: string): DomainVerdict {
  return { ok: false, reason, message };
}

function labelProblem(label: string): string | undefined {
  if (label === '') return 'has an empty label (two dots in a row, or a leading dot)';
  if (label.length > MAX_LABEL_LENGTH) return `has a label of ${label.length} characters; a label has at most ${MAX_LABEL_LENGTH}`;
  if (!LABEL.test(label)) return `the label "${label}" starts or ends with '-'`;
  if (label.slice(2, 4) === '--' && !label.startsWith('xn--'))
    return `the label "${label}" has '--' in positions 3 and 4, which only Punycode (xn--) labels may`;
  return undefined;
}

/**
 * IP literals in every spelling: bracketed or bare IPv6 (IPv4-mapped too), and any host whose labels are
 * all numbers the WHATWG IPv4 parser accepts (127.0.0.1, 127.1, 0x7f.1, 0177.0.0.1, 2130706433, 0x7f000001).
 */
function looksLikeIp(value: string): boolean {
  const host = value.trim().replace(/\.$/, '');
  if (/^\[[^\]]*\](?::[0-9]*)?(?:[/?#].*)?$/s.test(host)) return true;
  if ((host.match(/:/g)?.length ?? 0) >= 2 && /^[0-9a-f:.]+(?:%.*)?$/is.test(host)) return true;
  if (isIP(host) !== 0) return true;
  const bare = host.replace(/:[0-9]*(?:[/?#].*)?$/s, '');
  const labels = bare.split('.');
  return labels.length <= 4 && labels.every((l) => NUMERIC_LABEL.test(l));
}

function isIpHost(value: string): boolean {
  try {
    const host = new URL(`http://${value}`).hostname;
    return host.startsWith('[') || isIP(host) !== 0;
  } catch {
    return false;
  }
}

/** The bare domain an author probably meant, when stripping scheme, user, port and path leaves a valid one. */
function suggestion(value: string): string {
  const stripped = value
    .replace(/^[a-z][a-z0-9+.-]*:(?![0-9])(?:\/\/)?/i, '')
    .replace(/^[^@/]*@/, '')
    .replace(/[/?#\\].*$/s, '')
    .replace(/:[0-9]*$/, '');
  return stripped !== value && stripped !== '' && checkBareDomain(stripped).ok ? ` (${stripped})` : '';
}
