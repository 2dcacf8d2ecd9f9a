// The floor under a quote created and executed on PostgreSQL (USD to EUR between two internal
// accounts, COMPLETED at once): the database writes of POST /quotes and POST /quotes/{id}/execute,
// written with `pg` and nothing else (with the server's named prepared statements), as
// quotes.service.ts, quote-execution.ts, payments/ and ledger/ and the repositories write them:
//   BEGIN; WITH expiry AS (INSERT jobs) INSERT quotes; COMMIT  (the quote and its expiry job)
//   BEGIN
//   SELECT quotes … FOR UPDATE                                   (one execution at a time)
//   INSERT transactions                                          (the payment)
//   WITH event AS (INSERT webhook_outbox) INSERT jobs            (its event and the delivery)
//   SELECT internal_accounts … ORDER BY id FOR NO KEY UPDATE     (both accounts, in id order)
//   WITH movements (SEND, RECEIVE), entries (4)                  (both movements, the conditional
//     UPDATE both balances                                         debit and the credit)
//   UPDATE quotes SET state = 'EXECUTED'
//   COMMIT
// What the server does besides is what the ratio prices: HTTP, authentication, validation, the
// reads of accounts, platform and customer, pricing, and running the delivery jobs.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PreparingClient } from '../../server/db/prepared-statements.ts';
import { insertPaymentEvent, rawLoops, type RawRun } from './raw-loop.ts';

export interface QuoteAccounts {
  platformId: string;
  customerId: string;
  usd: string;
  eur: string;
}

/** A quote and its transaction as the server recorded them: the raw loop writes the same shapes. */
async function samples(pool: pg.Pool, accounts: QuoteAccounts) {
  const quote = await pool.query<Record<string, unknown>>(`select * from quotes where source_account_id = $1 and state = 'EXECUTED' limit 1`, [accounts.usd]);
  const q = quote.rows[0];
  if (q === undefined) throw new Error('no executed quote recorded by the server to copy the shapes of');
  const transaction = await pool.query<{ details: Record<string, unknown> }>('select details from transactions where id = $1', [q.transaction_id]);
  const event = await pool.query<{ payload: Record<string, unknown> }>(`select payload from webhook_outbox where type = 'OUTGOING_PAYMENT_COMPLETED' limit 1`);
  const details = transaction.rows[0]?.details;
  const payload = event.rows[0]?.payload;
  if (details === undefined || payload === undefined) throw new Error('no quote transaction or event to copy');
  return { quote: q, details, payload };
}

type Shapes = Awaited<ReturnType<typeof samples>>;

/** The SEND and RECEIVE movements of a conversion, their entries and both balance changes, in one statement; false when refused. */
async function movements(client: pg.PoolClient, accounts: QuoteAccounts, transactionId: string, sent: number, received: number, at: Date): Promise<boolean> {
  const send = `Movement:${randomUUID()}`;
  const receive = `Movement:${randomUUID()}`;
  const changed = await client.query(
    `with movements as (insert into ledger_movements (id, platform_id, transaction_id, kind, currency, amount, created_at)
       values ($1, $3, $4, 'SEND', 'USD', $5, $7), ($2, $3, $4, 'RECEIVE', 'EUR', $6, $7)),
     entries as (insert into ledger_entries (account, amount, movement_id, platform_id, created_at)
       values ($8, $9, $1, $3, $7), ('SYSTEM:SETTLEMENT:USD', $5, $1, $3, $7), ('SYSTEM:SETTLEMENT:EUR', $10, $2, $3, $7), ($11, $6, $2, $3, $7))
     update internal_accounts a set balance = a.balance + v.delta, updated_at = $7 from (values ($11, $6::bigint), ($8, $9::bigint)) v(id, delta)
     where a.platform_id = $3 and a.id = v.id and a.balance + v.delta >= 0 and a.balance + v.delta <= 9000000000000000 returning a.*`,
    [send, receive, accounts.platformId, transactionId, sent, received, at, accounts.usd, -sent, -received, accounts.eur],
  );
  return changed.rowCount === 2;
}

async function quoteAndExecute(client: pg.PoolClient, accounts: QuoteAccounts, shapes: Shapes): Promise<boolean> {
  const q = shapes.quote as { total_sending_amount: number; total_receiving_amount: number; fees_included: number; details: unknown };
  const quoteId = `Quote:${randomUUID()}`;
  let at = new Date();
  await client.query('begin');
  await client.query(
    `with expiry as (insert into jobs (id, kind, payload, status, run_at, max_attempts, locked_by, locked_until, last_error, created_at, updated_at)
       values ($12, 'quotes.expire', $13, 'PENDING', $10, 5, null, null, null, $11, $11))
     insert into quotes (id, platform_id, customer_id, state, source_type, source_account_id, destination_account_id, sending_currency, receiving_currency,
       total_sending_amount, total_receiving_amount, fees_included, transaction_id, details, expires_at, created_at, updated_at)
     values ($1, $2, $3, 'PENDING', 'ACCOUNT', $4, $5, 'USD', 'EUR', $6, $7, $8, null, $9, $10, $11, $11) returning *`,
    [
      quoteId,
      accounts.platformId,
      accounts.customerId,
      accounts.usd,
      accounts.eur,
      q.total_sending_amount,
      q.total_receiving_amount,
      q.fees_included,
      JSON.stringify(q.details),
      new Date(at.getTime() + 300_000),
      at,
      `Job:${randomUUID()}`,
      JSON.stringify({ platformId: accounts.platformId, quoteId }),
    ],
  );
  await client.query('commit');

  at = new Date();
  const transactionId = `Transaction:${randomUUID()}`;
  const eventId = `Event:${randomUUID()}`;
  await client.query('begin');
  try {
    await client.query('select * from quotes where platform_id = $1 and id = $2 for update', [accounts.platformId, quoteId]);
    await client.query(
      `insert into transactions (id, platform_id, customer_id, type, status, internal_account_id, source_account_id, destination_account_id,
         reference, failure_reason, settled_at, cancellation_reason, amount, currency, details, created_at, updated_at)
       values ($1, $2, $3, 'OUTGOING', 'COMPLETED', $4, $4, $5, 'QTE-RAW', null, $6, null, $7, 'USD', $8, $6, $6) returning *`,
      [transactionId, accounts.platformId, accounts.customerId, accounts.usd, accounts.eur, at, q.total_sending_amount, JSON.stringify({ ...shapes.details, quoteId })],
    );
    await insertPaymentEvent(client, accounts.platformId, eventId, { ...shapes.payload, id: eventId }, at);
    await client.query('select * from internal_accounts where platform_id = $1 and id in ($2, $3) order by id for no key update', [accounts.platformId, accounts.usd, accounts.eur]);
    if (!(await movements(client, accounts, transactionId, q.total_sending_amount, q.total_receiving_amount, at))) {
      await client.query('rollback');
      return false;
    }
    await client.query(`update quotes set state = 'EXECUTED', transaction_id = $1, updated_at = $2 where id = $3 and state = 'PENDING' returning *`, [transactionId, at, quoteId]);
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** `connections` loops of quotes created and executed, for `durationS` seconds. */
export async function rawQuotes(url: string, accounts: QuoteAccounts, options: { connections: number; durationS: number }): Promise<RawRun> {
  const pool = new pg.Pool({ connectionString: url, max: options.connections, Client: PreparingClient });
  try {
    const shapes = await samples(pool, accounts);
    return await rawLoops(pool, options, (client) => quoteAndExecute(client, accounts, shapes));
  } finally {
    await pool.end();
  }
}
