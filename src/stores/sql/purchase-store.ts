import type {
  ChargeRecord,
  ChargeState,
  Clock,
  CredentialRecords,
  Grant,
  GrantResult,
  IssuedChallenge,
  OpenCharge,
  PurchaseStore,
  SettledCharge,
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

/**
 * Expired challenges are swept at most this often (clock seconds) and this many at a time, when challenges are issued:
 * beside the issue, never awaited by it (what is not swept now is the next sweep's).
 */
const SWEEP_EVERY_S = 60;
const SWEEP_BATCH = 1000;
/** Challenges this instance issued or read, kept in-process at most; past it the oldest go first. */
const KEPT_CHALLENGES = 10_000;

/** Something was paid or sold under the challenge: it is kept for good. */
const PAID = ['charges', 'grants', 'sales', 'transfers'].map((table) => `EXISTS (SELECT 1 FROM ${table} WHERE challenge_id = challenges.id)`).join(' OR ');

function chargeOfRow(row: SqlRow | undefined): ChargeRecord | undefined {
  if (row === undefined) return undefined;
  const record = JSON.parse(row.body as string) as ChargeRecord;
  return { ...record, state: row.state as ChargeState, ...(row.charge_id === null ? {} : { chargeId: row.charge_id as string }) };
}

function bodyOf<T>(row: SqlRow | undefined): T | undefined {
  return row === undefined ? undefined : (JSON.parse(row.body as string) as T);
}

const CHARGE_COLUMNS = 'body, state, charge_id';

const UPDATE_CHARGE = `UPDATE charges SET state = ?, charge_id = COALESCE(?, charge_id) WHERE challenge_id = ? RETURNING ${CHARGE_COLUMNS}`;

/** The record an update answered; an update that found no charge throws. */
function updatedCharge(challengeId: string, rows: SqlRow[]): ChargeRecord {
  const record = chargeOfRow(rows[0]);
  if (!record) throw new Error(`no charge under challenge ${challengeId}`);
  return record;
}

/** SQLite, inside a transaction: the grant inserted and, only if it was, the balance credited; else the earlier grant. */
async function grantIn(tx: SqlRunner, grant: Grant): Promise<GrantResult> {
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
  return grantedBefore(tx, grant.challengeId);
}

/** A grant credited before: the one kept under its challenge, and its buyer's balance. */
async function grantedBefore(db: SqlRunner, challengeId: string): Promise<GrantResult> {
  const earlier = bodyOf<Grant>((await db.all('SELECT body FROM grants WHERE challenge_id = ?', [challengeId]))[0])!;
  return { granted: false, grant: earlier, balanceNano: await balanceIn(db, earlier.buyer) };
}

/** Postgres: a grant inserted, `granted` its rows, and only if it was, the balance credited (one statement, atomic). */
const CREDIT_GRANTED = `INSERT INTO balances (buyer, nano) SELECT buyer, CAST(? AS BIGINT) FROM granted
  ON CONFLICT (buyer) DO UPDATE SET nano = balances.nano + excluded.nano RETURNING CAST(nano AS TEXT) AS nano`;
const GRANT = `WITH granted AS (INSERT INTO grants (challenge_id, buyer, body) VALUES (?, ?, ?) ON CONFLICT (challenge_id) DO NOTHING RETURNING buyer)
  ${CREDIT_GRANTED}`;
/** GRANT of a charge found settled (the challenge id its fourth parameter), and nothing otherwise. */
const GRANT_WHEN_SETTLED = `WITH granted AS (INSERT INTO grants (challenge_id, buyer, body)
  SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM charges WHERE challenge_id = ? AND state = 'settled') ON CONFLICT (challenge_id) DO NOTHING RETURNING buyer)
  ${CREDIT_GRANTED}`;

/**
 * The purchase records in SQL (SQLite or Postgres). Each atomic step of the port is one statement or one
 * transaction (a grant is one statement on Postgres, whose data-modifying WITH SQLite lacks), and the unique keys decide races between instances: a second charge for a challenge or token
 * inserts nothing and answers the first; a second grant for a challenge credits nothing.
 */
export class SqlPurchaseStore implements PurchaseStore {
  private lastSweep = Number.NEGATIVE_INFINITY;
  /**
   * Challenges as issued, by id. A challenge is never changed once issued (its id binds what it says), so the one
   * this instance issued or read is answered without a read while it cannot yet be forgotten; past that, the database
   * says whether something was paid under it.
   */
  private readonly issued = new Map<string, IssuedChallenge>();

  constructor(
    private readonly db: SqlDatabase,
    private readonly options: SqlPurchaseStoreOptions = {},
  ) {}

  private get keepExpiredSeconds(): number {
    return this.options.keepExpiredSeconds ?? LIMITS.paymentChallengeLifetime.value;
  }

  async issue(challenge: IssuedChallenge): Promise<void> {
    this.sweep();
    await this.db.all(
      'INSERT INTO challenges (id, expires_at, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body',
      [challenge.id, challenge.expiresAt, JSON.stringify(challenge)],
    );
    this.keep(challenge);
  }

  async challenge(id: string): Promise<IssuedChallenge | undefined> {
    const kept = this.issued.get(id);
    if (kept !== undefined && !this.pastKeep(kept.expiresAt)) return kept;
    const [row] = await this.db.all(`SELECT body, expires_at, ${PAID} AS paid FROM challenges WHERE id = ?`, [id]);
    if (row === undefined) return undefined;
    if (this.forgotten(id, Number(row.expires_at), row.paid)) return undefined;
    const challenge = bodyOf<IssuedChallenge>(row)!;
    this.keep(challenge);
    return challenge;
  }

  /** Forgotten as the memory store forgets it: past its keep, unless something was paid under it. */
  private forgotten(id: string, expiresAt: number, paid: unknown): boolean {
    return this.pastKeep(expiresAt) && !paid && !this.options.referencedElsewhere?.(id);
  }

  /** Whether a challenge expiring at `expiresAt` may be forgotten now (never without a clock). */
  private pastKeep(expiresAt: number): boolean {
    const { clock } = this.options;
    return clock !== undefined && expiresAt + this.keepExpiredSeconds < clock.now();
  }

  private keep(challenge: IssuedChallenge): void {
    this.issued.delete(challenge.id);
    this.issued.set(challenge.id, challenge);
    if (this.issued.size > KEPT_CHALLENGES) this.issued.delete(this.issued.keys().next().value!);
  }

  /** Starts a sweep when one is due, beside the caller: a failed sweep is left to the next one. */
  private sweep(): void {
    const { clock } = this.options;
    if (clock === undefined) return;
    const now = clock.now();
    if (now - this.lastSweep < SWEEP_EVERY_S) return;
    this.lastSweep = now;
    this.sweepExpired(now).catch(() => undefined);
  }

  /** Two statements: the expired unpaid challenges found, then those no record kept elsewhere refers to deleted at once. */
  private async sweepExpired(now: number): Promise<void> {
    const expired = await this.db.all(`SELECT id FROM challenges WHERE expires_at < ? AND NOT (${PAID}) LIMIT ${SWEEP_BATCH}`, [now - this.keepExpiredSeconds]);
    const ids = expired.map((row) => row.id as string).filter((id) => !this.options.referencedElsewhere?.(id));
    if (ids.length === 0) return;
    const listed = this.db.dialect === 'postgres' ? 'SELECT json_array_elements_text(CAST(? AS json))' : 'SELECT value FROM json_each(?)';
    await this.db.all(`DELETE FROM challenges WHERE id IN (${listed}) AND NOT (${PAID})`, [JSON.stringify(ids)]);
  }

  async chargeOf(challengeId: string): Promise<ChargeRecord | undefined> {
    return chargeOfRow((await this.db.all(`SELECT ${CHARGE_COLUMNS} FROM charges WHERE challenge_id = ?`, [challengeId]))[0]);
  }

  /**
   * One statement: the charge under the challenge and the token's unreconciled payment (a null token joins nothing).
   * A credential's records are asked before its challenge, which the machine reads next to judge it: a challenge
   * another instance issued is read with them (a challenge never changes once issued, so it is kept as challenge()
   * keeps what it reads).
   */
  async credentialRecords(challengeId: string, token: string | undefined): Promise<CredentialRecords> {
    const kept = this.issued.get(challengeId);
    const withChallenge = kept === undefined || this.pastKeep(kept.expiresAt);
    const [row] = await this.db.all(
      `SELECT charges.body, charges.state, charges.charge_id, unreconciled.body AS unreconciled${withChallenge ? `, challenges.body AS challenge, challenges.expires_at, ${PAID} AS paid` : ''}
       FROM (SELECT CAST(? AS TEXT) AS id, CAST(? AS TEXT) AS token) AS asked LEFT JOIN charges ON charges.challenge_id = asked.id
       LEFT JOIN unreconciled ON unreconciled.token = asked.token${withChallenge ? ' LEFT JOIN challenges ON challenges.id = asked.id' : ''}`,
      [challengeId, token ?? null],
    );
    if (withChallenge && row!.challenge !== null && !this.forgotten(challengeId, Number(row!.expires_at), row!.paid)) {
      this.keep(JSON.parse(row!.challenge as string) as IssuedChallenge);
    }
    return {
      charge: row!.body === null ? undefined : chargeOfRow(row),
      unreconciled: row!.unreconciled === null ? undefined : (JSON.parse(row!.unreconciled as string) as UnreconciledPayment),
    };
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
    return updatedCharge(challengeId, await this.db.all(UPDATE_CHARGE, [update.state, update.chargeId ?? null, challengeId]));
  }

  /**
   * On Postgres two statements sent at once on one connection (one round trip), each committed on its own: the update,
   * then the grant, which credits only a charge it finds settled (so an update that failed to find its charge grants
   * nothing); when the grant credited nothing (granted before), as grant answers. On SQLite one transaction (one
   * commit, where each costs more than the statements): the update, then the grant under a savepoint, so a grant that
   * fails is undone alone and the settle is still committed.
   */
  async settleAndGrant(challengeId: string, chargeId: string | undefined, grant: Grant): Promise<SettledCharge> {
    if (this.db.dialect !== 'postgres')
      return this.db.transaction(async (tx) => {
        const record = updatedCharge(challengeId, await tx.all(UPDATE_CHARGE, ['settled', chargeId ?? null, challengeId]));
        await tx.all('SAVEPOINT grant_settled');
        try {
          const credited = await grantIn(tx, grant);
          await tx.all('RELEASE grant_settled');
          return { record, credited };
        } catch {
          await tx.all('ROLLBACK TO grant_settled');
          await tx.all('RELEASE grant_settled');
          return { record };
        }
      });
    const [updated, granted] = await this.db.inOrder([
      [UPDATE_CHARGE, ['settled', chargeId ?? null, challengeId]],
      [GRANT_WHEN_SETTLED, [grant.challengeId, grant.buyer, JSON.stringify(grant), challengeId, grant.creditNano]],
    ]);
    if (updated!.status === 'rejected') throw updated!.reason;
    const record = updatedCharge(challengeId, updated!.value);
    if (granted!.status === 'rejected') return { record };
    const [credited] = granted!.value;
    if (credited === undefined) return this.grantSettled(record, grant);
    return { record, credited: { granted: true, grant, balanceNano: credited.nano as string } };
  }

  /** The grant of a charge already settled; one that throws answers no `credited`. */
  private async grantSettled(record: ChargeRecord, grant: Grant): Promise<SettledCharge> {
    try {
      return { record, credited: await this.grant(grant) };
    } catch {
      return { record };
    }
  }

  async grant(grant: Grant): Promise<GrantResult> {
    if (this.db.dialect === 'postgres') {
      // One statement (atomic on its own): the grant inserted and, only if it was, the balance credited.
      const [credited] = await this.db.all(GRANT, [grant.challengeId, grant.buyer, JSON.stringify(grant), grant.creditNano]);
      if (credited !== undefined) return { granted: true, grant, balanceNano: credited.nano as string };
      return grantedBefore(this.db, grant.challengeId);
    }
    return this.db.transaction((tx) => grantIn(tx, grant));
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
