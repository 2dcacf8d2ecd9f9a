// Quotes. A quote is read with its transaction's status, which is the
// quote's status once it has been executed.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import { jobValues, type NewJob } from '../jobs/jobs.repository.ts';
import type { QuoteDetails, QuoteTable } from '../db/schema.ts';

export type QuoteRow = Selectable<QuoteTable>;
export type NewQuoteRow = Omit<Insertable<QuoteTable>, 'details'> & { details: QuoteDetails };
export type QuoteWithPayment = QuoteRow & { transaction_status: string | null };

/** Writes a quote and the job that expires it, in one statement. */
export async function insertQuote(db: Db, row: NewQuoteRow, expiry: NewJob): Promise<QuoteRow> {
  return db
    .with('expiry', (qb) => qb.insertInto('jobs').values(jobValues(expiry)))
    .insertInto('quotes')
    .values({ ...row, details: JSON.stringify(row.details) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const withPayment = (db: Db) =>
  db
    .selectFrom('quotes')
    .leftJoin('transactions', 'transactions.id', 'quotes.transaction_id')
    .selectAll('quotes')
    .select('transactions.status as transaction_status');

export async function findQuote(db: Db, platformId: string, id: string): Promise<QuoteWithPayment | undefined> {
  return withPayment(db).where('quotes.platform_id', '=', platformId).where('quotes.id', '=', id).executeTakeFirst();
}

/** The quote, locked until the end of the database transaction: one execution at a time. */
export async function findQuoteForUpdate(db: Db, platformId: string, id: string): Promise<QuoteRow | undefined> {
  return db.selectFrom('quotes').selectAll().where('platform_id', '=', platformId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Moves an open quote on (executed or expired); undefined when it was no longer PENDING. */
export async function closeQuote(db: Db, id: string, changes: { state: 'EXECUTED' | 'EXPIRED'; transaction_id?: string; updated_at: Date }): Promise<QuoteRow | undefined> {
  return db.updateTable('quotes').set(changes).where('id', '=', id).where('state', '=', 'PENDING').returningAll().executeTakeFirst();
}

/** Records the transaction of a quote that is still open (a real-time-funded quote's, at creation). */
export async function linkQuoteTransaction(db: Db, id: string, transactionId: string, at: Date): Promise<QuoteRow> {
  return db.updateTable('quotes').set({ transaction_id: transactionId, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Records the agent action that submitted the quote's execution. */
export async function noteAgentAction(db: Db, id: string, actionId: string): Promise<void> {
  await db.updateTable('quotes').set({ agent_action_id: actionId }).where('id', '=', id).execute();
}
