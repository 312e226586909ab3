import { serializeItem } from 'structured-headers';
import { COMPONENTS } from '../spec/index.js';
import { componentValue, targetUrlOf, type ParsedDictionaries } from './component-value.js';
import { serializeComponentId, type CoveredComponent } from './covered-component.js';
import type { HttpMessage } from './message.js';

const SIGNATURE_PARAMS_ID = serializeItem(COMPONENTS.signatureParams);

/**
 * RFC 9421 §2.5 signature base. `signatureParamsText` is the Signature-Input member exactly as received
 * (see splitDictionaryMembers): parameter order is the signer's, so rebuilding it breaks valid signatures.
 * Throws ComponentError when a component has no value. The target URI is parsed once for all derived components;
 * `parsed` hands over dictionary fields the caller already parsed (see ParsedDictionaries).
 */
export function signatureBase(
  msg: HttpMessage,
  covered: readonly CoveredComponent[],
  signatureParamsText: string,
  parsed?: ParsedDictionaries,
): string {
  const target = targetUrlOf(msg);
  let base = '';
  for (const c of covered) base += `${serializeComponentId(c)}: ${componentValue(msg, c, target, parsed)}\n`;
  return `${base}${SIGNATURE_PARAMS_ID}: ${signatureParamsText}`;
}
