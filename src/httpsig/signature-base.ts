import { serializeItem } from 'structured-headers';
import { COMPONENTS } from '../spec/index.js';
import { componentValue } from './component-value.js';
import { serializeComponentId, type CoveredComponent } from './covered-component.js';
import type { HttpMessage } from './message.js';

/**
 * RFC 9421 §2.5 signature base. `signatureParamsText` is the Signature-Input member exactly as received
 * (see splitDictionaryMembers): parameter order is the signer's, so rebuilding it breaks valid signatures.
 * Throws ComponentError when a component has no value.
 */
export function signatureBase(msg: HttpMessage, covered: readonly CoveredComponent[], signatureParamsText: string): string {
  const lines = covered.map((c) => `${serializeComponentId(c)}: ${componentValue(msg, c)}`);
  lines.push(`${serializeItem(COMPONENTS.signatureParams)}: ${signatureParamsText}`);
  return lines.join('\n');
}
