import type { WebSocket } from 'ws';
import { decodeBase64urlJson } from '../purchase/wire/base64url-json.js';
import { REFERENCE_PRICED_PATH } from '../reference/purchases.js';
import type { SocketRoute } from '../reference/upgrade.js';
import { AGENT_TRANSPORT_ROUTES } from '../spec/agent-endpoints.js';
import { AUTH_CODES } from '../spec/auth-errors.js';
import { HEADERS } from '../spec/headers.js';
import {
  DELEGATE_STATUSES,
  FRAME_MEMBERS,
  FUNDED_FRAME_TYPES,
  INBAND_FRAME_TYPES,
  INBAND_REQUIREMENTS as I,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  POINTER_BODY_MEMBERS,
  SCHEME_ENTRY_MEMBERS,
  SOCKET_ERROR_CODES,
  SOCKET_ERROR_MEMBERS,
} from '../spec/inband.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS } from '../spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS as M } from '../spec/purchase-method-requirements.js';
import { PLATFORM_MCP_REQUIREMENTS } from '../spec/platform-mcp.js';
import { PLATFORM_ROUTES } from '../spec/wire.js';
import { acceptSignatureValue } from '../verifier/refusal.js';
import { jsonAnswer, jsonOf, pathOf, rewrite, setJson, setText, textOf, type OpenAnswer } from './answer.js';
import { ignoreConfig } from './purchase.js';
import type { FaultRequest, Mutant } from './types.js';

/** The in-band answers (4.7, 6, the socket rows of 7.4) and the method rows of 7.4: faults of answers, socket upgrades and socket frames. */

type Frame = Record<string, unknown>;

/** Every frame the platform's sockets send goes through `change` (which edits it in place). */
function rewriteFrames(change: (frame: Frame) => void): (sockets: SocketRoute[]) => void {
  const wrap = (socket: WebSocket): WebSocket => {
    const send = socket.send.bind(socket) as (data: string) => void;
    socket.send = ((data: unknown) => {
      let frame: Frame;
      try {
        frame = JSON.parse(String(data)) as Frame;
      } catch {
        return send(String(data));
      }
      change(frame);
      send(JSON.stringify(frame));
    }) as WebSocket['send'];
    return socket;
  };
  return (sockets) => {
    for (const [i, route] of sockets.entries()) sockets[i] = { ...route, accept: (socket, ctx) => route.accept(wrap(socket), ctx) };
  };
}

const isUpgrade = (request: FaultRequest) => pathOf(request).endsWith(AGENT_TRANSPORT_ROUTES.uamp);
const schemesOf = (holder: unknown): Frame[] | undefined => {
  const requirements = (holder as Frame | undefined)?.[FRAME_MEMBERS.requirements] as Frame | undefined;
  const schemes = requirements?.[PAYMENT_REQUIREMENTS_MEMBERS.schemes];
  return Array.isArray(schemes) ? (schemes as Frame[]) : undefined;
};
const challengeParam = (method: string) => `method="${method}"`;
const prefersTempo = (request: FaultRequest) => (request.headers.get(HEADERS.paymentMethods) ?? '').trim().toLowerCase().startsWith(PAYMENT_METHODS.tempo);

/** A readable Payment challenge a fault adds where none may ride. */
const STRAY_CHALLENGE = 'Payment id="stray", realm="fault.example", method="stripe", intent="charge", request="e30"';

function setReceiptReference(a: OpenAnswer, reference: string): void {
  const header = a.headers.get(HEADERS.paymentReceipt);
  if (header === null) return;
  const decoded = decodeBase64urlJson(header);
  if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object') return;
  a.headers.set(HEADERS.paymentReceipt, Buffer.from(JSON.stringify({ ...(decoded.value as Frame), reference })).toString('base64url'));
}

export const INBAND_MUTANTS: readonly Mutant[] = [
  {
    id: 'inband-upgrade-refusal-without-accept-signature',
    description: 'refuses an agent socket upgrade that does not verify with 401 but no Accept-Signature',
    requirements: [I.socketUpgradeRefusal.id],
    platform: {
      answer: rewrite(
        (a, r) => isUpgrade(r) && a.status === 401,
        (a) => a.headers.delete(HEADERS.acceptSignature),
      ),
    },
  },
  {
    id: 'inband-upgrade-refused-403',
    description: 'refuses an agent socket upgrade that does not verify with 403 instead of 401',
    requirements: [I.socketUpgradeRefusal.id],
    platform: {
      answer: rewrite(
        (a, r) => isUpgrade(r) && a.status === 401,
        (a) => void (a.status = 403),
      ),
    },
  },
  {
    id: 'inband-payment-required-token-not-first',
    description: 'payment.required lists the mpp entry before the token entry',
    requirements: [I.paymentRequired.id],
    platform: { sockets: rewriteFrames((f) => void (f[FRAME_MEMBERS.type] === INBAND_FRAME_TYPES.paymentRequired && schemesOf(f)?.reverse())) },
  },
  {
    id: 'inband-payment-required-without-challenge',
    description: "payment.required's mpp entry to a signed caller carries no challenge",
    requirements: [I.paymentRequired.id],
    platform: {
      sockets: rewriteFrames((f) => {
        if (f[FRAME_MEMBERS.type] !== INBAND_FRAME_TYPES.paymentRequired) return;
        for (const entry of schemesOf(f) ?? []) delete entry[SCHEME_ENTRY_MEMBERS.challenge];
      }),
    },
  },
  {
    id: 'inband-payment-required-challenge-expires-in-10s',
    description: 'the purchase machine behind the agent socket issues payment.required challenges that expire 10 s after they are issued',
    requirements: [I.paymentRequired.id],
    platform: { purchases: (purchases) => ignoreConfig(purchases, (c) => ({ ...c, challengeLifetimeSeconds: 10 })) },
  },
  {
    id: 'inband-submit-refused',
    description: 'answers payment.submit after the challenge was paid with response.error instead of running the turn',
    requirements: [I.paymentSubmit.id],
    platform: {
      sockets: rewriteFrames((f) => {
        if (f[FRAME_MEMBERS.type] !== INBAND_FRAME_TYPES.paymentAccepted) return;
        for (const name of Object.keys(f)) if (name !== FRAME_MEMBERS.eventId) delete f[name];
        Object.assign(f, {
          [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.responseError,
          [FRAME_MEMBERS.error]: { [SOCKET_ERROR_MEMBERS.code]: SOCKET_ERROR_CODES.noTurnWaiting, [SOCKET_ERROR_MEMBERS.message]: 'fault' },
        });
      }),
    },
  },
  {
    id: 'inband-funded-frames-without-terms',
    description: 'payment.accepted, response.done and response.error of a funded turn carry no terms object',
    requirements: [I.fundedTerms.id],
    platform: { sockets: rewriteFrames((f) => void (FUNDED_FRAME_TYPES.includes(f[FRAME_MEMBERS.type] as never) && delete f[FRAME_MEMBERS.terms])) },
  },
  {
    id: 'inband-pointer-carries-challenge',
    description: "the LLM rail's purchase pointer also carries a WWW-Authenticate: Payment challenge",
    requirements: [I.pointer.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.llmChatCompletions && jsonOf(a)?.[POINTER_BODY_MEMBERS.requirements] !== undefined,
        (a) => a.headers.append(HEADERS.wwwAuthenticate, STRAY_CHALLENGE),
      ),
    },
  },
  {
    id: 'inband-pointer-token-not-first',
    description: "the LLM rail's purchase pointer lists the mpp entry before the token entry",
    requirements: [I.pointer.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.llmChatCompletions && schemesOf(jsonOf(a)) !== undefined,
        (a) => {
          const body = jsonOf(a)!;
          schemesOf(body)!.reverse();
          setJson(a, body);
        },
      ),
    },
  },
  {
    id: 'inband-pointer-mpp-entry-with-challenge',
    description: "the pointer's mpp entry carries a challenge beside purchase_url",
    requirements: [I.pointer.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.llmChatCompletions && schemesOf(jsonOf(a)) !== undefined,
        (a) => {
          const body = jsonOf(a)!;
          for (const entry of schemesOf(body)!)
            if (entry[SCHEME_ENTRY_MEMBERS.scheme] === INBAND_SCHEMES.mpp) entry[SCHEME_ENTRY_MEMBERS.challenge] = STRAY_CHALLENGE;
          setJson(a, body);
        },
      ),
    },
  },
  {
    id: 'inband-delegate-says-completed',
    description: 'the MCP delegate answers a call the balance does not cover with status completed instead of balance_required',
    requirements: [I.balanceRequired.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.mcp && textOf(a).includes(DELEGATE_STATUSES.balanceRequired),
        (a) => setText(a, textOf(a).replaceAll(DELEGATE_STATUSES.balanceRequired, DELEGATE_STATUSES.completed)),
      ),
    },
  },
  {
    id: 'mcp-401-without-accept-signature',
    description: 'the MCP endpoint answers a signature that does not verify with 401 but no Accept-Signature',
    requirements: [PLATFORM_MCP_REQUIREMENTS.acceptSignatureOn401.id],
    platform: {
      answer: rewrite(
        (a, r) => pathOf(r) === PLATFORM_ROUTES.mcp && a.status === 401,
        (a) => a.headers.delete(HEADERS.acceptSignature),
      ),
    },
  },
  {
    id: 'purchase-unsigned-call-refused-401',
    description: 'the priced resource answers an unsigned caller 401 missing_credential instead of a 402 sized to the call',
    requirements: [M.unsignedSizedToCall.id],
    platform: {
      answer: rewrite(
        (a, r) =>
          pathOf(r) === REFERENCE_PRICED_PATH && a.status === 402 && !r.headers.has(HEADERS.signatureInput) && !r.headers.has(HEADERS.paymentAuthorization),
        (a) => {
          jsonAnswer(a, 401, { [PURCHASE_BODY_MEMBERS.errorCode]: AUTH_CODES.missing_credential });
          a.headers.set(HEADERS.acceptSignature, acceptSignatureValue(false));
        },
      ),
    },
  },
  {
    id: 'purchase-tempo-challenge-named-stripe',
    description: 'the stablecoin challenge a buyer listing tempo first gets names method stripe',
    requirements: [M.methodsHint.id],
    platform: {
      answer: rewrite(
        (a, r) => a.status === 402 && prefersTempo(r) && (a.headers.get(HEADERS.wwwAuthenticate) ?? '').includes(challengeParam(PAYMENT_METHODS.tempo)),
        (a) =>
          a.headers.set(
            HEADERS.wwwAuthenticate,
            a.headers.get(HEADERS.wwwAuthenticate)!.replace(challengeParam(PAYMENT_METHODS.tempo), challengeParam(PAYMENT_METHODS.stripe)),
          ),
      ),
    },
  },
  {
    id: 'purchase-tempo-receipt-reference-not-hash',
    description: "a stablecoin purchase's receipt names another reference instead of the transaction hash",
    requirements: [M.stablecoinTransaction.id],
    platform: {
      answer: rewrite(
        (a) => {
          const header = a.headers.get(HEADERS.paymentReceipt);
          const decoded = header === null ? undefined : decodeBase64urlJson(header);
          return decoded?.ok === true && (decoded.value as Frame | null)?.method === PAYMENT_METHODS.tempo;
        },
        (a) => setReceiptReference(a, 'stray-reference'),
      ),
    },
  },
  {
    id: 'purchase-tempo-non-matching-without-fresh-challenge',
    description: 'a stablecoin transaction that does not pay the quote is refused 402 verification-failed with no fresh challenge',
    requirements: [M.stablecoinNonMatching.id],
    platform: {
      answer: rewrite(
        (a, r) =>
          a.status === 402 &&
          prefersTempo(r) &&
          r.headers.has(HEADERS.paymentAuthorization) &&
          (jsonOf(a)?.type as string | undefined)?.endsWith(`/${PAYMENT_PROBLEMS.verificationFailed.slug}`) === true,
        (a) => a.headers.delete(HEADERS.wwwAuthenticate),
      ),
    },
  },
  {
    id: 'inband-pointer-offers-purchase-while-closed',
    description: "the LLM rail's pointer holds an mpp entry whether or not buying is open for the caller (the switch is not read)",
    requirements: [I.pointer.id],
    platform: { purchases: (purchases) => void (purchases.sellsUsage = () => true) },
  },
  {
    id: 'inband-rails-fund-from-what-is-left',
    description: "the rails' balance funds a call it does not cover from what is left of it, so a caller whose balance ran out is served",
    requirements: [I.pointer.id],
    platform: {
      purchases: (purchases) => {
        const ledger = purchases.ledger;
        const spend = ledger.spend.bind(ledger);
        ledger.spend = async (agentUrl, nano) => {
          if (await spend(agentUrl, nano)) return true;
          const left = await ledger.balanceOf(agentUrl);
          return left > 0n && spend(agentUrl, left);
        };
      },
    },
  },
];
