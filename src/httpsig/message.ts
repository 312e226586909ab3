/** A request as the verifier received it (or as a signer is about to send it). */
export interface HttpMessage {
  readonly method: string;
  /** Absolute target URI. */
  readonly url: string;
  /** Field lines in received order; names in any case. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: Uint8Array | null;
}

const SP = 0x20;
const HTAB = 0x09;

/** `value` without leading and trailing SP/HTAB (and nothing else): what `/^[ \t]+|[ \t]+$/g` → '' gives. */
function trimSpTab(value: string): string {
  let start = 0;
  let end = value.length;
  for (let c = value.charCodeAt(start); (c === SP || c === HTAB) && start < end; c = value.charCodeAt(++start));
  for (let c = value.charCodeAt(end - 1); (c === SP || c === HTAB) && end > start; c = value.charCodeAt(--end - 1));
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * RFC 9421 §2.1 field value: every line with that name (case-insensitive), each stripped of leading and
 * trailing SP/HTAB only, joined with ", ". Undefined when the field is absent.
 */
export function fieldValue(headers: HttpMessage['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  let first: string | undefined;
  let more: string[] | undefined;
  for (let i = 0; i < headers.length; i++) {
    const [fieldName, value] = headers[i]!;
    if (fieldName !== wanted && fieldName.toLowerCase() !== wanted) continue;
    const trimmed = trimSpTab(value);
    if (first === undefined) first = trimmed;
    else (more ??= [first]).push(trimmed);
  }
  return more === undefined ? first : more.join(', ');
}
