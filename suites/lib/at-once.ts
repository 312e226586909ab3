import type { PaidExchange } from './buyer.js';
import { sameCredential503 } from './pack.js';

/**
 * Races of one credential with itself, on the wire: the same credential presented several times at once, each
 * presentation a 503 asks to present it again presented again at once (section 3 and 7.4: "re-present the same
 * credential"), a bounded number of times. Repeated with fresh credentials (RACES), a race a deployment leaves open has
 * more than one chance to show; in-process the order of the presentations is the same on every run.
 */

/** Presentations of one credential sent at once. */
export const AT_ONCE = 6;
/** Races a check runs, each with a credential of its own. */
export const RACES = 3;
/** How often a presentation a 503 asked to present again is presented again. */
const PRESENTED_AGAIN = 4;

/** Presents the credential `present` sends `n` times at once; each presentation's answers, in order, the last where it ended. */
export async function presentAtOnce(present: () => Promise<PaidExchange>, n = AT_ONCE): Promise<PaidExchange[][]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const answers: PaidExchange[] = [];
      for (let round = 0; round <= PRESENTED_AGAIN; round++) {
        const answer = await present();
        answers.push(answer);
        if (sameCredential503(answer) === undefined) break;
      }
      return answers;
    }),
  );
}
