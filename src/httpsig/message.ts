/** A request as the verifier received it (or as a signer is about to send it). */
export interface HttpMessage {
  readonly method: string;
  /** Absolute target URI. */
  readonly url: string;
  /** Field lines in received order; names in any case. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: Uint8Array | null;
}

const EDGE_WHITESPACE = /^[ \t]+|[ \t]+$/g;

/**
 * RFC 9421 §2.1 field value: every line with that name (case-insensitive), each stripped of leading and
 * trailing SP/HTAB only, joined with ", ". Undefined when the field is absent.
 */
export function fieldValue(headers: HttpMessage['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [fieldName, value] of headers) {
    if (fieldName.toLowerCase() === wanted) values.push(value.replace(EDGE_WHITESPACE, ''));
  }
  return values.length === 0 ? undefined : values.join(', ');
}
