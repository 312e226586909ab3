import { termsHeaders } from '../../purchase/index.js';
import { purchasePointerAnswer } from '../../purchase/inband.js';
import { HEADERS } from '../../spec/headers.js';
import type { ServiceNaming } from '../../spec/naming.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { PLATFORM_ROUTES } from '../../spec/wire.js';
import { errorAnswer, render } from '../render.js';
import { PLATFORM_ERROR_CODES, type VerifiedRoute } from '../routes.js';
import type { BalancePort } from './balance-port.js';
import { currentTerms, payerOf, type TermsSource } from './caller.js';
import { echoCompletion, readChatRequest } from './chat-completion.js';

export interface LlmRailOptions {
  readonly balances: BalancePort;
  /** What one completion costs, in nano units; a function answers for one payer at a time (a state of the test control may change it). */
  readonly priceNano: bigint | ((payer: string | null) => bigint);
  /**
   * The absolute URL of the platform's POST /api/mpp/credits; null on a deployment that sells no usage (the pointer then
   * holds the token entry only). A function answers for one payer at a time (buying may be closed for it).
   */
  readonly purchaseUrl: string | null | ((payer: string | null) => string | null);
  /** The terms whose headers ride on every funded answer (7.4). */
  readonly terms: TermsSource;
  /** Why the call did not run, as requirements.reason says it. */
  readonly reason?: string;
  /** The deployment's own names for Service (the terms-version header); the spec's neutral ones by default. */
  readonly naming?: ServiceNaming;
}

/** The reason a pointer gives by default. */
export const LLM_POINTER_REASON = 'The balance does not cover this completion; buy usage at purchase_url, then send the call again.';

/**
 * POST /api/llm/chat/completions (4.2, 6): verified first (a signed request or a platform bearer; a refusal is
 * the verifier's 401). A body that is not a chat request is 400, nothing spent. A caller whose balance does not
 * cover the call gets 402 with the purchase pointer body (token entry at index 0, an mpp entry holding only
 * purchase_url) and no `WWW-Authenticate: Payment`; a funded caller gets the completion with the terms headers
 * (Link rel=terms-of-service and the terms-version header), since the surface funded it.
 */
export function llmChatCompletionsRoute(options: LlmRailOptions): VerifiedRoute {
  if (typeof options.priceNano === 'bigint' && options.priceNano <= 0n) throw new RangeError('priceNano must be positive');
  const priceOf = (payer: string | null): bigint => {
    const price = typeof options.priceNano === 'function' ? options.priceNano(payer) : options.priceNano;
    if (price <= 0n) throw new RangeError(`a completion's price must be positive, not ${price} nano`);
    return price;
  };
  return {
    name: PLATFORM_ROUTES.llmChatCompletions,
    path: PLATFORM_ROUTES.llmChatCompletions,
    access: 'verified',
    methods: {
      POST: async (ctx) => {
        const { request } = await ctx.read();
        const chat = readChatRequest(request.body);
        if (!chat.ok) return render(errorAnswer(400, PLATFORM_ERROR_CODES.badRequest, chat.detail));
        const payer = payerOf(ctx.verdict);
        const priceNano = priceOf(payer);
        const funded = payer !== null && (await options.balances.spend(payer, priceNano));
        if (!funded) {
          return render(
            purchasePointerAnswer({
              priceNano,
              purchaseUrl: typeof options.purchaseUrl === 'function' ? options.purchaseUrl(payer) : options.purchaseUrl,
              reason: options.reason ?? LLM_POINTER_REASON,
            }),
          );
        }
        const terms = currentTerms(options.terms);
        return render({
          status: 200,
          headers: { [HEADERS.contentType]: MEDIA_TYPES.json, ...termsHeaders(terms.url, terms.version, options.naming) },
          body: echoCompletion(chat.request, request.body, ctx.ports.clock.now()),
        });
      },
    },
  };
}
