// The floor under `POST /transfer-out` on PostgreSQL: the database writes of one COMPLETED transfer
// (suffix 000), written with `pg` and nothing else (with the server's named prepared statements),
// in one SQL transaction per transfer, as payment-status.ts, payments.repository.ts,
// ledger.repository.ts, webhooks.repository.ts and jobs.repository.ts write them, in their order:
//   BEGIN
//   INSERT transactions … RETURNING *                       (openPayment → insertTransaction)
//   WITH event AS (INSERT webhook_outbox) INSERT jobs       (emitEvent: OUTGOING_PAYMENT_COMPLETED and
//                                                            its webhooks.deliver job)
//   WITH movement AS (INSERT ledger_movements),             (the balance writer: SEND, account → settlement,
//     entries AS (INSERT ledger_entries: 2 rows)             and the conditional debit, last, so the
//     UPDATE internal_accounts … FROM (VALUES …)             row lock is held only until COMMIT; with
//     WHERE balance stays within 0 and the cap RETURNING     one internal account there is no
//                                                            SELECT … FOR UPDATE)
//   COMMIT
// What the server does besides is what the ratio prices: HTTP, authentication, request and
// response handling, the reads of the two accounts and the customer, and running the delivery jobs.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PreparingClient } from '../../server/db/prepared-statements.ts';
import { insertPaymentEvent, rawLoops, type RawRun } from './raw-loop.ts';

export interface TransferAccounts {
  platformId: string;
  customerId: string;
  internalAccountId: string;
  externalAccountId: string;
}

/** The details and webhook payload of a transfer the server recorded: the raw loop writes the same shapes. */
async function samples(pool: pg.Pool, accounts: TransferAccounts): Promise<{ details: Record<string, unknown>; event: Record<string, unknown> }> {
  const details = await pool.query<{ details: Record<string, unknown> }>(
    `select details from transactions where source_account_id = $1 and type = 'OUTGOING' limit 1`,
    [accounts.internalAccountId],
  );
  const event = await pool.query<{ payload: Record<string, unknown> }>(`select payload from webhook_outbox where type = 'OUTGOING_PAYMENT_COMPLETED' limit 1`);
  const d = details.rows[0]?.details;
  const e = event.rows[0]?.payload;
  if (d === undefined || e === undefined) throw new Error('no transfer-out recorded by the server to copy the shapes of');
  return { details: d, event: e };
}

const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const reference = () => `ACH-${Array.from({ length: 8 }, () => REFERENCE_ALPHABET[Math.floor(Math.random() * REFERENCE_ALPHABET.length)]).join('')}`;

async function transferOut(client: pg.PoolClient, accounts: TransferAccounts, amount: number, shapes: Awaited<ReturnType<typeof samples>>): Promise<boolean> {
  const at = new Date();
  const transactionId = `Transaction:${randomUUID()}`;
  const movementId = `Movement:${randomUUID()}`;
  const eventId = `Event:${randomUUID()}`;
  const ref = reference();
  const details = { ...shapes.details, reconciliationInstructions: { reference: ref } };
  await client.query('begin');
  try {
    const inserted = await client.query(
      `insert into transactions (id, platform_id, customer_id, type, status, internal_account_id, source_account_id, destination_account_id,
         reference, failure_reason, settled_at, cancellation_reason, amount, currency, details, created_at, updated_at)
       values ($1, $2, $3, 'OUTGOING', 'COMPLETED', $4, $4, $5, $6, null, $7, null, $8, 'USD', $9, $7, $7) returning *`,
      [transactionId, accounts.platformId, accounts.customerId, accounts.internalAccountId, accounts.externalAccountId, ref, at, amount, JSON.stringify(details)],
    );
    const row = inserted.rows[0] as { id: string };
    const event = { ...shapes.event, id: eventId, timestamp: at.toISOString(), data: { ...(shapes.event.data as object), id: row.id, reconciliationInstructions: { reference: ref } } };
    await insertPaymentEvent(client, accounts.platformId, eventId, event, at);
    const debited = await client.query(
      `with movement as (insert into ledger_movements (id, platform_id, transaction_id, kind, currency, amount, created_at) values ($1, $2, $3, 'SEND', 'USD', $4, $5)),
       entries as (insert into ledger_entries (movement_id, platform_id, account, amount, created_at) values ($1, $2, $6, $7, $5), ($1, $2, 'SYSTEM:SETTLEMENT:USD', $4, $5))
       update internal_accounts a set balance = a.balance + v.delta, updated_at = $5 from (values ($6, $7::bigint)) v(id, delta)
       where a.platform_id = $2 and a.id = v.id and a.balance + v.delta >= 0 and a.balance + v.delta <= 9000000000000000 returning a.*`,
      [movementId, accounts.platformId, transactionId, amount, at, accounts.internalAccountId, -amount],
    );
    if (debited.rowCount !== 1) {
      await client.query('rollback');
      return false;
    }
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** `connections` loops of transfer-outs of `amount` for `durationS` seconds, each on its own connection. */
export async function rawTransferOuts(url: string, accounts: TransferAccounts, options: { connections: number; durationS: number; amount: number }): Promise<RawRun> {
  const pool = new pg.Pool({ connectionString: url, max: options.connections, Client: PreparingClient });
  try {
    const shapes = await samples(pool, accounts);
    return await rawLoops(pool, options, (client) => transferOut(client, accounts, options.amount, shapes));
  } finally {
    await pool.end();
  }
}

/** Whether the account's balance is the sum of its entries after both runs (the raw loop included). */
export async function accountConsistent(url: string, accountId: string): Promise<{ balance: number; entries: number; sends: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ balance: string; entries: string; sends: string }>(
      `select a.balance,
         (select coalesce(sum(amount), 0) from ledger_entries where account = a.id) as entries,
         (select count(*) from ledger_movements m join transactions t on t.id = m.transaction_id where t.source_account_id = a.id and m.kind = 'SEND') as sends
       from internal_accounts a where a.id = $1`,
      [accountId],
    );
    const row = r.rows[0];
    if (row === undefined) throw new Error(`no account ${accountId}`);
    return { balance: Number(row.balance), entries: Number(row.entries), sends: Number(row.sends) };
  } finally {
    await client.end();
  }
}
