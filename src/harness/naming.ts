import type { DeploymentNames } from '../contract/run-context.js';
import { NEUTRAL_NAMING, NEUTRAL_SERVICE_WORD, deployedHeader, isServiceName, serviceNaming, type ServiceNaming } from '../spec/naming.js';
import { wireFieldName } from '../spec/payments.js';

/**
 * How a check speaks of the deployment's own names (src/spec/naming.ts): a header the deployment should write is
 * named as it should write it, and when the answer carries the header under another name in the place of Service
 * (or none at all), the message says which `run --service-name` would match.
 */

/** The option that gives a run the deployment's name for Service. */
export const SERVICE_NAME_OPTION = '--service-name';

/** `acme` as a name is written: `Acme`. */
const capitalised = (word: string) => wireFieldName(word);

/** The segment standing where `neutral` has `service`, in `name`, when `name` is `neutral` with another word there. */
function nameInPlace(name: string, neutral: string): string | undefined {
  const [before, after] = neutral.split(NEUTRAL_SERVICE_WORD) as [string, string];
  if (!name.startsWith(before) || !name.endsWith(after) || name.length <= before.length + after.length) return undefined;
  const word = name.slice(before.length, name.length - after.length);
  return isServiceName(word) ? word : undefined;
}

/**
 * What to say of an answer that lacks the header the deployment should write for `neutral` (a catalogue name
 * carrying Service): the header as this deployment writes it, and what `--service-name` would match.
 */
export function missingNamedHeader(headers: Readonly<Record<string, string>>, neutral: string, naming: ServiceNaming = NEUTRAL_NAMING): string {
  const wanted = deployedHeader(neutral, naming);
  const missing = `the answer carries no ${wireFieldName(wanted)} header`;
  const other = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .find((name) => name !== wanted && nameInPlace(name, neutral) !== undefined);
  if (other === undefined) {
    return naming.serviceName === undefined
      ? `${missing} (a deployment that writes its own name for Service there is run with ${SERVICE_NAME_OPTION} NAME)`
      : `${missing} (${wireFieldName(neutral)} as a deployment named ${naming.serviceName} writes it, ${SERVICE_NAME_OPTION} ${naming.serviceName})`;
  }
  const word = nameInPlace(other, neutral)!;
  if (word === NEUTRAL_SERVICE_WORD)
    return `${missing} but carries ${wireFieldName(other)}, the spec's own name: does this deployment write ${naming.serviceName} for Service? run without ${SERVICE_NAME_OPTION} if it keeps the spec's names`;
  return `${missing} but carries ${wireFieldName(other)}: is ${capitalised(word)} this deployment's name for Service (${wireFieldName(other)} for ${wireFieldName(neutral)})? run ${SERVICE_NAME_OPTION} ${capitalised(word)}`;
}

/**
 * What is wrong with the realm of a 401's Bearer challenge (7.3 `realm=service`, the deployment's name in the place
 * of Service), compared case-insensitively (READING-SERVICE-NAME); undefined when it is right.
 */
export function realmProblem(realm: string | undefined, naming: ServiceNaming = NEUTRAL_NAMING): string | undefined {
  if (realm !== undefined && realm.toLowerCase() === naming.realm.toLowerCase()) return undefined;
  const said = `WWW-Authenticate realm is ${JSON.stringify(realm ?? null)}, not ${naming.realm}`;
  if (realm === undefined || !isServiceName(realm)) return `${said} (the deployment's name for Service: ${SERVICE_NAME_OPTION} NAME gives it)`;
  if (realm.toLowerCase() === NEUTRAL_SERVICE_WORD)
    return `${said}: the spec's own word, so this deployment does not write ${naming.serviceName} for Service; run without ${SERVICE_NAME_OPTION} if it keeps the spec's names`;
  return `${said}: is ${capitalised(realm)} this deployment's name for Service? run ${SERVICE_NAME_OPTION} ${capitalised(realm)}`;
}

/** The deployment's names as a report shows them (RunReport.target.naming), or undefined when the run was told none. */
export function reportedNaming(names: DeploymentNames | undefined): NamingRecord | undefined {
  if (!names || Object.values(names).every((v) => v === undefined)) return undefined;
  const naming = serviceNaming(names.serviceName);
  return {
    ...(names.serviceName === undefined ? {} : { serviceName: names.serviceName }),
    headers: { ...naming.headers },
    realm: naming.realm,
    ...(names.problemsUrl === undefined ? {} : { problemsUrl: names.problemsUrl }),
    ...(names.paymentProblemsUrl === undefined ? {} : { paymentProblemsUrl: names.paymentProblemsUrl }),
    ...(names.termsUrl === undefined ? {} : { termsUrl: names.termsUrl }),
  };
}

/** The deployment's names a run was given, as its report records them: each header carrying Service, the spec's name to the deployment's. */
export interface NamingRecord {
  readonly serviceName?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly realm: string;
  readonly problemsUrl?: string;
  readonly paymentProblemsUrl?: string;
  readonly termsUrl?: string;
}

/** The names in words, for report.html and summary.md: `Service is Acme: Service-Terms-Version → Acme-Terms-Version, …; realm acme`. */
export function namingWords(record: NamingRecord): string[] {
  const headers = Object.entries(record.headers).map(([neutral, deployed]) => `${wireFieldName(neutral)} → ${wireFieldName(deployed)}`);
  return [
    record.serviceName === undefined ? "the spec's own names (Service)" : `Service is ${record.serviceName}: ${headers.join(', ')}; realm ${record.realm}`,
    ...(record.problemsUrl === undefined ? [] : [`{problems_url} ${record.problemsUrl}`]),
    ...(record.paymentProblemsUrl === undefined ? [] : [`{payment_problems_url} ${record.paymentProblemsUrl}`]),
    ...(record.termsUrl === undefined ? [] : [`{terms_url} ${record.termsUrl}`]),
  ];
}
