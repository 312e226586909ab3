import type {
  ChargeRecord,
  ChargeState,
  Clock,
  Grant,
  GrantResult,
  IssuedChallenge,
  OpenCharge,
  PurchaseStore,
  TermsAssent,
  UnreconciledPayment,
} from '../../purchase/machine/ports/purchase.js';
import { LIMITS } from '../../spec/limits.js';
import type { SqlDatabase, SqlRow, SqlRunner } from './driver.js';

export interface SqlPurchaseStoreOptions {
  /** With a clock, a challenge nothing was paid under is forgotten `keepExpiredSeconds` after it expired (as in memory). */
  readonly clock?: Clock;
  /** How long an expired challenge is still recognised; one more challenge lifetime by default. */
  readonly keepExpiredSeconds?: number;
  /** Whether a record kept outside this database (a transfer, a sale in memory) still refers to the challenge. */
  readonly referencedElsewhere?: (challengeId: string) => boolean;
}

/** Expired challenges are swept at most this often (clock seconds) and this many at a time, when challenges are issued. */
const SWEEP_EVERY_S = 60;
const SWEEP_BATCH = 1000;

/** Something was paid or sold under the challenge: it is kept for good. */
const PAID = ['charges', 'grants', 'sales'].map((table) => `EXISTS (SELECT 1 FROM ${table} WHERE challenge_id = challenges.id)`).join(' OR ');

function chargeOfRow(row: SqlRow | undefined): ChargeRecord | undefined {
  if (row === undefined) return undefined;
  const record = JSON.parse(row.body as string) as ChargeRecord;
  return { ...record, state: row.state as ChargeState, ...(row.charge_id === null ? {} : { chargeId: row.charge_id as string }) };
}

function bodyOf<T>(row: SqlRow | undefined): T | undefined {
  return row === undefined ? undefined : (JSON.parse(row.body as string) as T);
}

const CHARGE_COLUMNS = 'body, state, charge_id';

/**
 * The purchase records in SQL (SQLite or Postgres). Each atomic step of the port is one statement or one
 * transaction, and the unique keys decide races between instances: a second charge for a challenge or token
 * inserts nothing and answers the first; a second grant for a challenge credits nothing.
 */
export class SqlPurchaseStore implements PurchaseStore {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: SqlDatabase,
    private readonly options: SqlPurchaseStoreOptions = {},
  ) {}

  private get keepExpiredSeconds(): number {
    return this.options.keepExpiredSeconds ?? LIMITS.paymentChallengeLifetime.value;
  }

  async issue(challenge: IssuedChallenge): Promise<void> {
    await this.sweep();
    await this.db.all(
      'INSERT INTO challenges (id, expires_at, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body',
      [challenge.id, challenge.expiresAt, JSON.stringify(challenge)],
    );
  }

  async challenge(id: string): Promise<IssuedChallenge | undefined> {
    const [row] = await this.db.all(`SELECT body, expires_at, ${PAID} AS paid FROM challenges WHERE id = ?`, [id]);
    if (row === undefined) return undefined;
    const { clock, referencedElsewhere } = this.options;
    // Forgotten as the memory store forgets it: past its keep, unless something was paid under it.
    const forgotten = clock !== undefined && Number(row.expires_at) + this.keepExpiredSeconds < clock.now() && !row.paid && !referencedElsewhere?.(id);
    return forgotten ? undefined : bodyOf<IssuedChallenge>(row);
  }

  private async sweep(): Promise<void> {
    const { clock, referencedElsewhere } = this.options;
    if (clock === undefined) return;
    const now = clock.now();
    if (now - this.lastSweep < SWEEP_EVERY_S) return;
    this.lastSweep = now;
    const expired = await this.db.all(`SELECT id FROM challenges WHERE expires_at < ? AND NOT (${PAID}) LIMIT ${SWEEP_BATCH}`, [now - this.keepExpiredSeconds]);
    for (const { id } of expired)
      if (!referencedElsewhere?.(id as string)) await this.db.all(`DELETE FROM challenges WHERE id = ? AND NOT (${PAID})`, [id as string]);
  }

  async chargeOf(challengeId: string): Promise<ChargeRecord | undefined> {
    return chargeOfRow((await this.db.all(`SELECT ${CHARGE_COLUMNS} FROM charges WHERE challenge_id = ?`, [challengeId]))[0]);
  }
  async chargeById(chargeId: string): Promise<ChargeRecord | undefined> {
    return chargeOfRow((await this.db.all(`SELECT ${CHARGE_COLUMNS} FROM charges WHERE charge_id = ? LIMIT 1`, [chargeId]))[0]);
  }
  async chargeByKey(idempotencyKey: string): Promise<ChargeRecord | undefined> {
    return chargeOfRow((await this.db.all(`SELECT ${CHARGE_COLUMNS} FROM charges WHERE idempotency_key = ? LIMIT 1`, [idempotencyKey]))[0]);
  }
  async chargeByToken(token: string): Promise<ChargeRecord | undefined> {
    return chargeOfRow((await this.db.all(`SELECT ${CHARGE_COLUMNS} FROM charges WHERE token = ?`, [token]))[0]);
  }

  async openCharge(record: ChargeRecord): Promise<OpenCharge> {
    const inserted = await this.db.all(
      `INSERT INTO charges (challenge_id, token, idempotency_key, buyer, state, charge_id, sent_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING RETURNING challenge_id`,
      [record.challengeId, record.token, record.idempotencyKey, record.buyer, record.state, record.chargeId ?? null, record.sentAt, JSON.stringify(record)],
    );
    if (inserted.length === 1) return { opened: true, record };
    // The insert lost to a committed row (Postgres waits for a concurrent one to commit): answer that row.
    const byChallenge = await this.chargeOf(record.challengeId);
    if (byChallenge) return { opened: false, clash: 'challenge', existing: byChallenge };
    const byToken = await this.chargeByToken(record.token);
    if (byToken) return { opened: false, clash: 'token', existing: byToken };
    throw new Error(`charge under challenge ${record.challengeId} was neither opened nor found`);
  }

  async updateCharge(challengeId: string, update: { readonly state: ChargeState; readonly chargeId?: string }): Promise<ChargeRecord> {
    const [row] = await this.db.all(`UPDATE charges SET state = ?, charge_id = COALESCE(?, charge_id) WHERE challenge_id = ? RETURNING ${CHARGE_COLUMNS}`, [
      update.state,
      update.chargeId ?? null,
      challengeId,
    ]);
    const record = chargeOfRow(row);
    if (!record) throw new Error(`no charge under challenge ${challengeId}`);
    return record;
  }

  grant(grant: Grant): Promise<GrantResult> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx.all(
        'INSERT INTO grants (challenge_id, buyer, body) VALUES (?, ?, ?) ON CONFLICT (challenge_id) DO NOTHING RETURNING challenge_id',
        [grant.challengeId, grant.buyer, JSON.stringify(grant)],
      );
      if (inserted.length === 1) {
        const [row] = await tx.all(
          'INSERT INTO balances (buyer, nano) VALUES (?, ?) ON CONFLICT (buyer) DO UPDATE SET nano = balances.nano + excluded.nano RETURNING CAST(nano AS TEXT) AS nano',
          [grant.buyer, grant.creditNano],
        );
        return { granted: true, grant, balanceNano: row!.nano as string };
      }
      const earlier = bodyOf<Grant>((await tx.all('SELECT body FROM grants WHERE challenge_id = ?', [grant.challengeId]))[0])!;
      return { granted: false, grant: earlier, balanceNano: await balanceIn(tx, earlier.buyer) };
    });
  }

  async grantOf(challengeId: string): Promise<Grant | undefined> {
    return bodyOf<Grant>((await this.db.all('SELECT body FROM grants WHERE challenge_id = ?', [challengeId]))[0]);
  }
  balance(buyer: string): Promise<string> {
    return balanceIn(this.db, buyer);
  }
  async recordAssent(assent: TermsAssent): Promise<void> {
    await this.db.all('INSERT INTO assents (challenge_id, body) VALUES (?, ?)', [assent.challengeId, JSON.stringify(assent)]);
  }
  async pendingChargeOf(buyer: string, except: string): Promise<ChargeRecord | undefined> {
    const rows = await this.db.all(`SELECT ${CHARGE_COLUMNS} FROM charges WHERE buyer = ? AND state = 'sent' AND challenge_id <> ? ORDER BY sent_at LIMIT 1`, [
      buyer,
      except,
    ]);
    return chargeOfRow(rows[0]);
  }
  async recordUnreconciled(payment: UnreconciledPayment): Promise<void> {
    await this.db.all('INSERT INTO unreconciled (token, body) VALUES (?, ?) ON CONFLICT (token) DO UPDATE SET body = excluded.body', [
      payment.token,
      JSON.stringify(payment),
    ]);
  }
  async unreconciledOf(token: string): Promise<UnreconciledPayment | undefined> {
    return bodyOf<UnreconciledPayment>((await this.db.all('SELECT body FROM unreconciled WHERE token = ?', [token]))[0]);
  }
}

async function balanceIn(db: SqlRunner, buyer: string): Promise<string> {
  const [row] = await db.all('SELECT CAST(nano AS TEXT) AS nano FROM balances WHERE buyer = ?', [buyer]);
  return row === undefined ? '0' : (row.nano as string);
}
