import { unsupportedMediaTypeAnswer, type EndpointAnswer } from './endpoint-answers.js';
import { DEFAULT_ACCEPTED_MEDIA_TYPES, methodTakesBody, type HttpEndpointDeclaration } from './endpoint-declaration.js';

/** The media type of a Content-Type value without parameters, lower case; undefined when absent or empty. */
export function mediaTypeEssence(contentType: string | null | undefined): string | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}

/**
 * 4.1, 7.2: a request with a body needs a Content-Type the endpoint accepts, else 415. A method that carries a
 * body (POST, PUT, PATCH...) is judged even with an empty body, so a missing Content-Type is always 415 there.
 */
export function decideContentType(
  endpoint: Pick<HttpEndpointDeclaration, 'accepts'>,
  method: string,
  contentType: string | null | undefined,
  hasBody: boolean,
): EndpointAnswer | null {
  if (!hasBody && !methodTakesBody(method)) return null;
  const accepted = (endpoint.accepts ?? DEFAULT_ACCEPTED_MEDIA_TYPES).map((t) => t.toLowerCase());
  const given = mediaTypeEssence(contentType);
  if (given !== undefined && accepted.includes(given)) return null;
  return unsupportedMediaTypeAnswer(given, endpoint.accepts ?? DEFAULT_ACCEPTED_MEDIA_TYPES);
}
