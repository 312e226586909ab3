import { serializeItem } from 'structured-headers';
import { COMPONENTS } from '../spec/index.js';
import { componentValue, targetUrlOf, type PreparedMessage } from './component-value.js';
import { serializeComponentId, type CoveredComponent } from './covered-component.js';
import type { HttpMessage } from './message.js';

const SIGNATURE_PARAMS_ID = serializeItem(COMPONENTS.signatureParams);

/**
 * RFC 9421 §2.5 signature base. `signatureParamsText` is the Signature-Input member exactly as received
 * (see splitDictionaryMembers): parameter order is the signer's, so rebuilding it breaks valid signatures.
 * Throws ComponentError when a component has no value. The target URI is parsed once for all derived components;
 * `prepared` hands over what the caller already parsed from the message (see PreparedMessage).
 */
export function signatureBase(msg: HttpMessage, covered: readonly CoveredComponent[], signatureParamsText: string, prepared?: PreparedMessage): string {
  const target = targetUrlOf(msg, prepared?.targetUrl);
  let base = '';
  for (const c of covered) base += `${serializeComponentId(c)}: ${componentValue(msg, c, target, prepared?.dictionaries)}\n`;
  return `${base}${SIGNATURE_PARAMS_ID}: ${signatureParamsText}`;
}
