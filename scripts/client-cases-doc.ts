import { CLIENT_RULE_LIST, CLIENT_RULES } from '../src/client-judge/rules.js';
import { CLIENT_ROUTE_PATHS } from '../src/harness/client/double.js';
import { CLIENT_CASES, type ClientCase } from '../src/scenarios/clients/cases.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** What the double answers in a case beyond the reference platform's own answers. */
function scripted(c: ClientCase): string {
  const parts: string[] = [];
  if (c.script.paid?.length)
    parts.push(
      `the first paid presentations get ${c.script.paid.map((code) => `${PURCHASE_ERRORS[code].status} \`${code}\``).join(', then ')}${c.script.afterwards === 'repeat' ? ' (and every later one the last of these)' : ', later ones the platform'}`,
    );
  if (c.script.unpaidAfter === 'served') parts.push('a request without a credential after it is served (200)');
  if (c.script.settleAfter503) parts.push("after the platform's 503 the charge settles at the processor");
  return parts.length ? parts.join('; ') : "the reference platform's own answers";
}

/** docs/client-cases.md, written from the cases and rules of client mode by `npm run vectors`. */
export function clientCasesMarkdown(): string {
  const cases = CLIENT_CASES.map((c) =>
    [
      `### \`${c.id}\`: ${c.title}`,
      '',
      `- **Request:** ${c.request.method} \`${CLIENT_ROUTE_PATHS[c.request.route]}${c.request.query ? `?${c.request.query}` : ''}\`${c.request.body === undefined ? ', no body' : `, body \`${c.request.body}\` (${c.request.contentType})`}; APC_CARD_TOKEN \`spt_test_${c.token}_<n>\`.`,
      `- **The double:** ${scripted(c)}.`,
      `- **Asks of the client:** ${c.asks}`,
      `- **Judges:** ${c.rules.map((k) => `\`${CLIENT_RULES[k].id}\``).join(', ')}.`,
      '',
    ].join('\n'),
  );
  const rules = CLIENT_RULE_LIST.map((r) => `| \`${r.id}\` | ${r.requirement.id} | ${r.requirement.section} | ${cell(r.requirement.condition)} |`);
  return [
    '# Client mode: the cases and the checks',
    '',
    '<!-- Written by `npm run vectors` from src/scenarios/clients/cases.ts and src/client-judge/rules.ts; edit those, not this. -->',
    '',
    'What `run --client-command` asks of the client under test, case by case, and the checks it judges every request',
    'by. How client mode works and how to write a wrapper: [client-mode.md](client-mode.md).',
    '',
    '## The checks',
    '',
    'One check per rule. Each is judged over every request of every selected case: a request that breaks it fails it, requests',
    'that meet it and none that breaks it pass it, and a check no request gave occasion to judge is not run, with the reason.',
    '',
    '| check | requirement | section | the rule |',
    '|---|---|---|---|',
    ...rules,
    '',
    '## The cases',
    '',
    ...cases,
  ].join('\n');
}
