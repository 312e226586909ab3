import { canonicalJson } from '../purchase/wire/canonical-json.js';
import { paymentChallenges } from '../purchase/wire/challenge-parse.js';
import type { ChallengeEcho, PaymentChallenge } from '../purchase/wire/challenge.js';
import { parseCredential, sameEcho } from '../purchase/wire/credential.js';
import type { JsonObject } from '../purchase/wire/json.js';
import { HEADERS } from '../spec/headers.js';
import { PURCHASE_ERRORS, type PurchaseErrorCode } from '../spec/purchase-errors.js';
import { PAYMENT_CREDENTIAL_HEADER, PURCHASE_BODY_MEMBERS, RETRY_MEMBERS, TERMS_OBJECT_MEMBERS } from '../spec/payments.js';
import { RETRY_AFTER_MARGIN_MS } from '../spec/readings.js';
import { AUTH_SCHEMES } from '../spec/wire.js';
import { decidePointer, type BuyerConfig } from '../purchase/buyer/pointer-rule.js';
import { pointerUrlOf } from './pointer.js';
import type { ClientExchange, ClientFrame, RuleMark } from './types.js';
import {
  FRAME_MEMBERS,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  PAYMENT_SUBMIT_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
} from '../spec/inband.js';

/** A credential a request presented: where, its text, and what it decodes to. */
interface Presentation {
  readonly index: number;
  /** The header it rode in, lower case. */
  readonly header: string;
  readonly value: string;
  readonly echo: ChallengeEcho | undefined;
  /** The decoded credential in canonical form (what "the same credential" compares), undefined when it does not decode. */
  readonly same: string | undefined;
  readonly problem: string | undefined;
}

/** What an answer of the double tells a buyer. */
interface Answer {
  readonly index: number;
  readonly status: number;
  readonly code: string | undefined;
  readonly retry: { readonly sameCredential: boolean; readonly credentialHeader: string | undefined } | undefined;
  readonly retryAfterMs: number | undefined;
  readonly challenges: readonly { readonly challenge: PaymentChallenge; readonly echo: ChallengeEcho }[];
  readonly termsVersion: string | undefined;
}

const CREDENTIAL_HEADERS: readonly string[] = [HEADERS.paymentAuthorization, HEADERS.authorization];

function header(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** The Payment credential a request carries: in Payment-Authorization, or (wrongly) as an Authorization Payment credential. */
function presentationOf(exchange: ClientExchange, index: number): Presentation | undefined {
  for (const name of CREDENTIAL_HEADERS) {
    const value = header(exchange.request.headers, name);
    if (value === undefined) continue;
    if (name === HEADERS.authorization && !value.trim().toLowerCase().startsWith(`${AUTH_SCHEMES.payment.toLowerCase()} `)) continue;
    const parsed = parseCredential(value);
    if (!parsed.ok) return { index, header: name, value, echo: undefined, same: undefined, problem: parsed.detail };
    const { challenge, payload, source } = parsed.credential;
    const same = canonicalJson({ challenge: challenge as unknown as JsonObject, payload, ...(source === undefined ? {} : { source }) });
    return { index, header: name, value, echo: challenge, same, problem: undefined };
  }
  return undefined;
}

function jsonBody(bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in delay-seconds or as an HTTP-date (RFC 9110 10.2.3), in milliseconds after `answeredAtMs`. */
function retryAfterMs(value: string | undefined, answeredAtMs: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - answeredAtMs) : undefined;
}

/** The double's answers are its own (the reference's renderings of 7.4): the code is in error_code, the retry object beside it. */
function answerOf(exchange: ClientExchange, index: number): Answer | undefined {
  const response = exchange.response;
  if (!response) return undefined;
  const body = jsonBody(response.body);
  const code = typeof body?.[PURCHASE_BODY_MEMBERS.errorCode] === 'string' ? (body[PURCHASE_BODY_MEMBERS.errorCode] as string) : undefined;
  const retryValue = body?.[PURCHASE_BODY_MEMBERS.retry];
  const retry =
    retryValue !== null && typeof retryValue === 'object'
      ? {
          sameCredential: (retryValue as Record<string, unknown>)[RETRY_MEMBERS.sameCredential] === true,
          credentialHeader: ((retryValue as Record<string, unknown>)[RETRY_MEMBERS.credentialHeader] as string | undefined) ?? undefined,
        }
      : undefined;
  const www = response.headers[HEADERS.wwwAuthenticate];
  const challenges = www === undefined ? [] : paymentChallenges(www).challenges.flatMap((c) => (c.ok ? [{ challenge: c.challenge, echo: c.echo }] : []));
  return {
    index,
    status: response.status,
    code,
    retry,
    retryAfterMs: retryAfterMs(response.headers[HEADERS.retryAfter], exchange.answeredAtMs),
    challenges,
    termsVersion: response.headers[HEADERS.termsVersion],
  };
}

/** The rows of 7.4 that tell the buyer to resend the request without the credential. */
const RESEND_UNPAID: readonly PurchaseErrorCode[] = ['purchase_already_granted', 'funding_failed'];

const isRow = (code: string | undefined, row: PurchaseErrorCode) => code === PURCHASE_ERRORS[row].code;

/** Which member of two echoes of one challenge id differs, for the message. */
function differingMember(a: ChallengeEcho, b: ChallengeEcho): string {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const name = names.find((n) => (a as unknown as Record<string, unknown>)[n] !== (b as unknown as Record<string, unknown>)[n]);
  return name === undefined ? 'none' : name;
}

const at = (index: number) => `request ${index + 1}`;

/** Whether a request URL is the pointer's: the same origin and path (any query). */
function samePlace(pointer: string): (url: string) => boolean {
  let wanted: URL;
  try {
    wanted = new URL(pointer);
  } catch {
    return () => false;
  }
  return (url) => {
    try {
      const u = new URL(url);
      return u.origin === wanted.origin && u.pathname === wanted.pathname;
    } catch {
      return false;
    }
  };
}

/**
 * The buyer's rules over the requests of one case, in the order the double received them (7.4, section 3). Each
 * mark says which request met or broke a rule and why; a rule the case gave no occasion to observe leaves no mark.
 */
export function judgeBuyer(exchanges: readonly ClientExchange[], buyer?: BuyerConfig, frames: readonly ClientFrame[] = []): RuleMark[] {
  const marks: RuleMark[] = [];
  const mark = (rule: RuleMark['rule'], met: boolean, exchange: number, detail: string) => marks.push({ rule, met, exchange, detail });
  const presentations = exchanges.map(presentationOf);
  const answers = exchanges.map(answerOf);
  const issued: { index: number; challenge: PaymentChallenge; echo: ChallengeEcho; termsVersion: string | undefined }[] = [];
  const firstOf = new Map<string, Presentation>();
  // Challenges the agent socket issued in payment.required (6), each known from the exchange after which it came.
  const inband = frames.flatMap((f) => (f.from === 'platform' ? inbandChallenges(f) : []));
  let inbandTaken = 0;

  exchanges.forEach((exchange, i) => {
    for (; inbandTaken < inband.length && inband[inbandTaken]!.afterExchanges <= i; inbandTaken++) issued.push({ ...inband[inbandTaken]!, index: i });
    const p = presentations[i];
    if (p) {
      // Echo: member for member a challenge the double issued before this request.
      const match = p.echo === undefined ? undefined : issued.find((c) => sameEcho(c.echo, p.echo!));
      if (p.problem !== undefined) mark('echo', false, i, `${at(i)} presents a credential that cannot be read: ${p.problem}`);
      else if (match) mark('echo', true, i, `${at(i)} echoes challenge ${match.challenge.id}, issued in the answer to ${at(match.index)}`);
      else {
        const sameId = issued.find((c) => c.challenge.id === p.echo!.id);
        mark(
          'echo',
          false,
          i,
          sameId
            ? `${at(i)} echoes challenge ${p.echo!.id} with its ${differingMember(sameId.echo, p.echo!)} member changed; a credential echoes the challenge exactly`
            : `${at(i)} pays challenge ${JSON.stringify(p.echo!.id)} (realm ${JSON.stringify(p.echo!.realm)}), which this platform never issued: pay only where the service challenges`,
        );
      }
      // Terms and header: Service-Terms-Accepted with the version the challenge's answer named, the credential in Payment-Authorization.
      if (match) {
        const accepted = header(exchange.request.headers, HEADERS.termsAccepted);
        if (p.header !== HEADERS.paymentAuthorization)
          mark('termsAccepted', false, i, `${at(i)} sends the credential in ${p.header}; the paid retry carries it in ${PAYMENT_CREDENTIAL_HEADER}`);
        else if (match.termsVersion !== undefined && accepted?.trim() !== match.termsVersion)
          mark(
            'termsAccepted',
            false,
            i,
            accepted === undefined
              ? `${at(i)} pays without ${HEADERS.termsAccepted}; paying accepts the terms, version ${match.termsVersion}`
              : `${at(i)} accepts terms version ${JSON.stringify(accepted)}; the challenge's answer named ${match.termsVersion}`,
          );
        else mark('termsAccepted', true, i, `${at(i)} carries ${HEADERS.termsAccepted}: ${accepted ?? '(no version named)'} and ${PAYMENT_CREDENTIAL_HEADER}`);
      }
      // 7.4: a stablecoin credential carries an unbroadcast transfer of exactly the quote, valid until the challenge expiry.
      if (exchange.transfer) mark('transfer', exchange.transfer.ok, i, `${at(i)} pays by stablecoin: ${exchange.transfer.detail}`);
      // One credential per challenge: presented again, the same one.
      if (p.echo !== undefined && p.same !== undefined) {
        const first = firstOf.get(p.echo.id);
        if (!first) firstOf.set(p.echo.id, p);
        else if (first.same === p.same) mark('oneCredential', true, i, `${at(i)} presents the credential of ${at(first.index)} again`);
        else
          mark(
            'oneCredential',
            false,
            i,
            `${at(i)} presents a second, different credential for challenge ${p.echo.id} (first presented in ${at(first.index)})`,
          );
      }
    }

    const a = answers[i];
    if (!a) return;
    for (const c of a.challenges) issued.push({ index: i, challenge: c.challenge, echo: c.echo, termsVersion: a.termsVersion });
    const next = exchanges[i + 1];
    const nextP = presentations[i + 1];

    // Retry-After: the next request waits for it where the answer asks for the same credential again, or its row says
    // to retry after it (7.4: "re-present exactly the same credential after Retry-After (never before)").
    const row = a.code === undefined ? undefined : Object.values(PURCHASE_ERRORS).find((r) => r.code === a.code);
    if ((row?.retryAfter || a.retry?.sameCredential) && a.retryAfterMs !== undefined && next) {
      const waited = next.receivedAtMs - exchange.answeredAtMs;
      if (waited + RETRY_AFTER_MARGIN_MS < a.retryAfterMs)
        mark(
          'retryAfter',
          false,
          i + 1,
          `${at(i + 1)} came ${waited} ms after the ${a.status} ${a.code}, whose Retry-After asked for ${a.retryAfterMs / 1000} s`,
        );
      else mark('retryAfter', true, i + 1, `${at(i + 1)} waited ${waited} ms after the ${a.status} ${a.code} (Retry-After ${a.retryAfterMs / 1000} s)`);
    }

    // The same credential, in the header retry.credentialHeader names, after every answer whose sameCredential is true.
    if (a.retry?.sameCredential && p?.same !== undefined && next) {
      const wanted = (a.retry.credentialHeader ?? PAYMENT_CREDENTIAL_HEADER).toLowerCase();
      if (!nextP)
        mark(
          'sameCredential',
          false,
          i + 1,
          `after the ${a.status} ${a.code} (retry.sameCredential true) ${at(i + 1)} was sent without the credential: a fresh purchase would pay twice`,
        );
      else if (nextP.same !== p.same)
        mark(
          'sameCredential',
          false,
          i + 1,
          `after the ${a.status} ${a.code} (retry.sameCredential true) ${at(i + 1)} presents a fresh credential, not the one of ${at(i)}`,
        );
      else if (nextP.header !== wanted)
        mark('sameCredential', false, i + 1, `${at(i + 1)} re-presents the credential in ${nextP.header}; retry.credentialHeader names ${wanted}`);
      else mark('sameCredential', true, i + 1, `${at(i + 1)} re-presents exactly the credential of ${at(i)} after the ${a.status} ${a.code}`);
    }

    // 409 purchase_already_granted, 503 funding_failed: resend without the credential, and never present that one again.
    if (p && RESEND_UNPAID.some((code) => isRow(a.code, code))) {
      if (next)
        mark(
          'resendUnpaid',
          nextP === undefined,
          i + 1,
          nextP === undefined
            ? `${at(i + 1)} resends the request without a credential after the ${a.status} ${a.code}`
            : `${at(i + 1)} presents a credential again after the ${a.status} ${a.code}; resend the request without it`,
        );
      const again = presentations.slice(i + 2).find((q) => q !== undefined && q.same !== undefined && q.same === p.same);
      if (again) mark('resendUnpaid', false, again.index, `${at(again.index)} presents the credential the ${a.status} ${a.code} to ${at(i)} already answered`);
    }

    // 502 upstream_payment_not_relayed ends the purchase.
    if (isRow(a.code, 'upstream_payment_not_relayed')) {
      const paid = presentations.slice(i + 1).find((q) => q !== undefined);
      if (paid)
        mark(
          'upstream',
          false,
          paid.index,
          `${at(paid.index)} presents a credential after the 502 upstream_payment_not_relayed to ${at(i)}: pay only where the service challenges`,
        );
      else mark('upstream', true, i, `no credential follows the 502 upstream_payment_not_relayed to ${at(i)}`);
    }

    // Section 6: a pointer is followed only when both hosts are on the buyer's allow list and a daily cap is configured.
    const pointer = a.status === 402 ? pointerUrlOf(a.status, jsonBody(exchange.response!.body)) : undefined;
    if (pointer !== undefined && buyer) {
      const decision = decidePointer(pointer, exchange.request.url, buyer);
      const target = samePlace(pointer);
      const followed = exchanges.slice(i + 1).findIndex((e) => target(e.request.url));
      if (decision.decision === 'refuse')
        mark(
          'pointer',
          followed < 0,
          followed < 0 ? i : i + 1 + followed,
          followed < 0
            ? `nothing is sent to the pointer ${pointer} of the answer to ${at(i)}: ${decision.detail}`
            : `${at(i + 1 + followed)} follows the pointer ${pointer} of the answer to ${at(i)} although ${decision.detail}; the buyer refuses with pointer_needs_daily_cap and sends nothing`,
        );
      else if (followed >= 0)
        mark(
          'pointer',
          true,
          i + 1 + followed,
          `${at(i + 1 + followed)} follows the pointer ${pointer}: both hosts are on the allow list and a daily cap is configured`,
        );
    }

    // 401 terms_acceptance_unauthenticated: re-present only on a signed request (or with the platform token).
    if (isRow(a.code, 'terms_acceptance_unauthenticated')) {
      for (const q of presentations.slice(i + 1)) {
        if (q === undefined) continue;
        const signer = exchanges[q.index]!.signer;
        const signed = signer.kind === 'accepted' || (signer.kind === 'unsigned' && signer.bearer);
        mark(
          'termsSigned',
          signed,
          q.index,
          signed
            ? `${at(q.index)} re-presents the credential on a signed request after the 401 terms_acceptance_unauthenticated`
            : `${at(q.index)} re-presents the credential on a request that ${signer.kind === 'unsigned' ? 'is not signed' : 'does not verify'}, after the 401 terms_acceptance_unauthenticated`,
        );
      }
    }
  });

  // Section 6: payment.submit, with payment.scheme balance, only once a credential for the socket's challenge was paid (2xx).
  const paidInband = (before: number) =>
    exchanges
      .slice(0, before)
      .some(
        (e, k) =>
          e.response !== null &&
          e.response.status >= 200 &&
          e.response.status < 300 &&
          inband.some((c) => presentations[k]?.echo !== undefined && sameEcho(c.echo, presentations[k]!.echo!)),
      );
  for (const f of frames) {
    if (f.from !== 'client') continue;
    const frame = frameObject(f.text);
    if (frame?.[FRAME_MEMBERS.type] !== INBAND_FRAME_TYPES.paymentSubmit) continue;
    const payment = frame[FRAME_MEMBERS.payment] as Record<string, unknown> | undefined;
    const scheme = payment?.[PAYMENT_SUBMIT_MEMBERS.scheme];
    const at_ = Math.max(0, f.afterExchanges - 1);
    if (scheme !== INBAND_SCHEMES.balance)
      mark('submit', false, at_, `payment.submit carries payment.scheme ${JSON.stringify(scheme ?? null)}; after paying it carries ${INBAND_SCHEMES.balance}`);
    else if (!paidInband(f.afterExchanges))
      mark('submit', false, at_, `payment.submit was sent before the challenge of payment.required was paid (no paid request answered 2xx before it)`);
    else mark('submit', true, at_, `payment.submit (scheme ${INBAND_SCHEMES.balance}) follows the paid ${at(at_)}`);
  }
  return marks;
}

function frameObject(text: string): Record<string, unknown> | undefined {
  return jsonBody(new TextEncoder().encode(text));
}

/** The challenges of a payment.required frame's mpp entry (the Payment challenge value), with the terms version beside it. */
function inbandChallenges(f: ClientFrame): { afterExchanges: number; challenge: PaymentChallenge; echo: ChallengeEcho; termsVersion: string | undefined }[] {
  const frame = frameObject(f.text);
  if (frame?.[FRAME_MEMBERS.type] !== INBAND_FRAME_TYPES.paymentRequired) return [];
  const requirements = frame[FRAME_MEMBERS.requirements] as Record<string, unknown> | undefined;
  const schemes = requirements?.[PAYMENT_REQUIREMENTS_MEMBERS.schemes];
  if (!Array.isArray(schemes)) return [];
  return (schemes as Array<Record<string, unknown> | null>).flatMap((entry) => {
    const value = entry?.[SCHEME_ENTRY_MEMBERS.challenge];
    if (entry?.[SCHEME_ENTRY_MEMBERS.scheme] !== INBAND_SCHEMES.mpp || typeof value !== 'string') return [];
    const terms = entry[SCHEME_ENTRY_MEMBERS.terms] as Record<string, unknown> | undefined;
    const version = terms?.[TERMS_OBJECT_MEMBERS.version];
    return paymentChallenges(value).challenges.flatMap((c) =>
      c.ok ? [{ afterExchanges: f.afterExchanges, challenge: c.challenge, echo: c.echo, termsVersion: typeof version === 'string' ? version : undefined }] : [],
    );
  });
}
