import { HEADERS } from './headers.js';
import { wireFieldName } from './payments.js';
import { BEARER_CHALLENGE } from './wire.js';

/**
 * The deployment's own names. The spec writes the neutral word Service where a deployment writes its name: in
 * header names (`Service-Terms-Version`, `X-Service-Owner-Key`, ...) and in the 401 challenge (`realm=service`).
 * The deployed names are derived from the catalogue's, never spelled again: the `service` segment of a name is
 * replaced by the deployment's name, lower case (`service-terms-version` is `acme-terms-version` for Acme).
 */

/** The word the spec writes where a deployment writes its own name (a segment of the header names, the realm). */
export const NEUTRAL_SERVICE_WORD = 'service';

/** A deployment's name: letters, digits and hyphens (a header-name segment and a realm token). */
const SERVICE_NAME_PATTERN = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/** The catalogue's header names that carry the platform's name (those with a `service` segment), lower case. */
export const SERVICE_NAMED_HEADERS: readonly string[] = Object.freeze(Object.values(HEADERS).filter((name) => name.split('-').includes(NEUTRAL_SERVICE_WORD)));

export interface ServiceNaming {
  /** The name the deployment writes for Service, as given; absent for the spec's neutral word. */
  readonly serviceName?: string;
  /** Each header name of SERVICE_NAMED_HEADERS (the catalogue's, neutral) with the deployment's, both lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The realm of the 401 Bearer challenge (7.3 `realm=service`). */
  readonly realm: string;
}

/** `neutral` with its `service` segment replaced by `name`, lower case. */
function namedAfter(neutral: string, name: string): string {
  return neutral
    .split('-')
    .map((segment) => (segment === NEUTRAL_SERVICE_WORD ? name.toLowerCase() : segment))
    .join('-');
}

/** The spec's own names: a deployment that writes Service where the spec does. */
export const NEUTRAL_NAMING: ServiceNaming = Object.freeze({
  headers: Object.freeze(Object.fromEntries(SERVICE_NAMED_HEADERS.map((name) => [name, name]))),
  realm: BEARER_CHALLENGE.realm,
});

/** Whether `name` can stand for Service in a header name and a realm: letters, digits and hyphens. */
export function isServiceName(name: string): boolean {
  return SERVICE_NAME_PATTERN.test(name);
}

/** The names of a deployment that writes `name` for Service; the neutral ones without a name. Throws a TypeError for a name that is not a token. */
export function serviceNaming(name?: string): ServiceNaming {
  if (name === undefined) return NEUTRAL_NAMING;
  if (!isServiceName(name)) throw new TypeError(`the service name ${JSON.stringify(name)} is not letters, digits and hyphens`);
  return Object.freeze({
    serviceName: name,
    headers: Object.freeze(Object.fromEntries(SERVICE_NAMED_HEADERS.map((neutral) => [neutral, namedAfter(neutral, name)]))),
    realm: namedAfter(BEARER_CHALLENGE.realm, name),
  });
}

/** The name a deployment writes for a header the catalogue names: its own for a header carrying Service, else `name` unchanged. */
export function deployedHeader(name: string, naming: ServiceNaming = NEUTRAL_NAMING): string {
  return naming.headers[name.toLowerCase()] ?? name;
}

/** The catalogue's name for a header name a deployment writes (any case), or undefined when it carries none of the deployment's names. */
export function neutralHeader(name: string, naming: ServiceNaming = NEUTRAL_NAMING): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(naming.headers).find((neutral) => naming.headers[neutral] === lower);
}

/** A text of the spec's (a description, a condition) with each header name carrying Service written as the deployment writes it. */
export function namedText(text: string, naming: ServiceNaming = NEUTRAL_NAMING): string {
  let named = text;
  for (const [neutral, deployed] of Object.entries(naming.headers))
    if (neutral !== deployed) named = named.split(wireFieldName(neutral)).join(wireFieldName(deployed));
  return named;
}
