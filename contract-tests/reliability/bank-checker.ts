// The bank run's checker, once every operation has answered and every payment has settled: the
// database against itself (the ledger check, double entry, balanced movements, no negative
// balance) and against the accepted answers (each ledger account holds exactly what they say, and
// each created exactly its rows: no missing, no extra). Answers the violations, each naming its
// invariant; an empty list is a pass.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { checkLedger } from '../../server/ledger/ledger-check.ts';
import type { Violation } from './bank-journal.ts';
import { SYSTEM, type BankModel } from './bank-model.ts';

const CURRENCIES = ['USD', 'EUR'];

/** The members of one set missing from the other, both ways, for a message. */
function difference(what: string, expected: ReadonlySet<string>, found: ReadonlySet<string>): string | undefined {
  const missing = [...expected].filter((id) => !found.has(id));
  const extra = [...found].filter((id) => !expected.has(id));
  if (missing.length === 0 && extra.length === 0) return undefined;
  return `${what}: ${missing.length} accepted but not in the database (${missing.slice(0, 3).join(', ')}), ${extra.length} in the database but never accepted (${extra.slice(0, 3).join(', ')})`;
}

async function rows<T>(db: Kysely<Database>, query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

export async function checkBank(db: Kysely<Database>, model: BankModel, apiBalances: ReadonlyMap<string, number>): Promise<Violation[]> {
  const violations: Violation[] = [];
  const violation = (invariant: Violation['invariant'], detail: string) => violations.push({ invariant, detail });

  const report = await checkLedger(db);
  if (!report.consistent) {
    violation('ledger-check', `checkLedger: ${report.balanceDifferences.length} balances differ from their entries (${JSON.stringify(report.balanceDifferences.slice(0, 3))}), ${report.unbalancedMovements.length} unbalanced movements, ${report.strandedHolds.length} stranded holds`);
  }

  const total = await rows(db, sql<{ n: string; total: string | null }>`select count(*) as n, sum(amount) as total from ledger_entries`);
  if (Number(total[0]?.total ?? 0) !== 0) violation('double-entry', `the ${total[0]?.n} ledger entries sum to ${total[0]?.total}, not 0`);

  // Each movement: two entries, one out and one in, of the movement's amount.
  const unbalanced = await rows(
    db,
    sql<{ id: string; entries: string; total: string }>`
      select m.id, count(e.id) as entries, coalesce(sum(e.amount), 0) as total from ledger_movements m left join ledger_entries e on e.movement_id = m.id
      group by m.id, m.amount having count(e.id) <> 2 or coalesce(sum(e.amount), 0) <> 0 or max(e.amount) <> m.amount or min(e.amount) <> -m.amount`,
  );
  if (unbalanced.length > 0) violation('balanced-movements', `${unbalanced.length} movements are not one debit and one credit of their amount: ${JSON.stringify(unbalanced.slice(0, 3))}`);

  const balances = new Map((await rows(db, sql<{ id: string; balance: string }>`select id, balance from internal_accounts`)).map((r) => [r.id, Number(r.balance)]));
  const negative = [...balances].filter(([, b]) => b < 0);
  if (negative.length > 0) violation('non-negative', `negative balances: ${JSON.stringify(negative)}`);
  const check = await rows(db, sql<{ n: string }>`select count(*) as n from pg_constraint where conrelid = 'internal_accounts'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%balance >= 0%'`);
  if (Number(check[0]?.n ?? 0) !== 1) violation('non-negative', 'internal_accounts has no CHECK (balance >= 0)');

  // Every ledger account, internal or system, holds exactly what the accepted answers put there.
  const entrySums = new Map((await rows(db, sql<{ account: string; total: string }>`select account, sum(amount) as total from ledger_entries group by account`)).map((r) => [r.account, Number(r.total)]));
  const accounts = new Set([...model.expected.keys(), ...entrySums.keys()]);
  const wrong: string[] = [];
  for (const account of accounts) {
    const expected = model.expected.get(account) ?? 0;
    const entries = entrySums.get(account) ?? 0;
    const balance = balances.get(account);
    const api = apiBalances.get(account);
    if (entries !== expected || (balance !== undefined && balance !== expected) || (model.currencyOf.has(account) && api !== expected)) {
      wrong.push(`${account}: the answers say ${expected}, entries ${entries}, balance ${balance ?? '-'}, API ${api ?? '-'}`);
    }
  }
  if (wrong.length > 0) violation('balances-match-requests', `${wrong.length} ledger accounts differ from the accepted requests: ${wrong.slice(0, 4).join('; ')}`);

  // Conservation per currency: the internal balances plus what left over the rails (with the
  // quotes' fees and rate margins, in settlement) plus what is in flight are what was funded.
  for (const currency of CURRENCIES) {
    const internal = [...balances].filter(([id]) => model.currencyOf.get(id) === currency).reduce((s, [, b]) => s + b, 0);
    const settlement = entrySums.get(SYSTEM.settlement(currency)) ?? 0;
    const inFlight = entrySums.get(SYSTEM.inFlight(currency)) ?? 0;
    const funded = -(entrySums.get(SYSTEM.funding(currency)) ?? 0);
    const fundedByAnswers = -(model.expected.get(SYSTEM.funding(currency)) ?? 0);
    if (internal + settlement + inFlight !== funded || funded !== fundedByAnswers) {
      violation('conservation', `${currency}: internal ${internal} + settlement ${settlement} + in flight ${inFlight} = ${internal + settlement + inFlight}; funded ${funded} (the answers: ${fundedByAnswers})`);
    }
  }

  // One effect per accepted request: the rows are exactly those the 2xx answers named.
  const funding = await rows(db, sql<{ transaction_id: string; account: string }>`select m.transaction_id, e.account from ledger_movements m join ledger_entries e on e.movement_id = m.id and e.amount > 0 where m.kind = 'FUND'`);
  const fundingIds = new Set(funding.map((r) => r.transaction_id));
  const transactions = new Set((await rows(db, sql<{ id: string }>`select id from transactions`)).map((r) => r.id).filter((id) => !fundingIds.has(id)));
  const quotes = new Set((await rows(db, sql<{ id: string }>`select id from quotes`)).map((r) => r.id));
  const actions = await rows(db, sql<{ id: string; status: string }>`select id, status from agent_actions`);
  for (const problem of [
    difference('transactions', model.transactions, transactions),
    difference('quotes', model.quotes, quotes),
    difference('agent actions', new Set(model.actions.keys()), new Set(actions.map((a) => a.id))),
  ]) {
    if (problem !== undefined) violation('one-effect-per-request', problem);
  }
  const fundingsPerAccount = new Map<string, number>();
  for (const r of funding) fundingsPerAccount.set(r.account, (fundingsPerAccount.get(r.account) ?? 0) + 1);
  for (const account of new Set([...model.fundings.keys(), ...fundingsPerAccount.keys()])) {
    if ((model.fundings.get(account) ?? 0) !== (fundingsPerAccount.get(account) ?? 0)) {
      violation('one-effect-per-request', `${account}: ${model.fundings.get(account) ?? 0} fundings accepted, ${fundingsPerAccount.get(account) ?? 0} in the ledger`);
    }
  }
  const statusDiffers = actions.filter((a) => model.actions.has(a.id) && model.actions.get(a.id) !== a.status);
  if (statusDiffers.length > 0) violation('one-effect-per-request', `${statusDiffers.length} agent actions are not in the status their approval answered: ${JSON.stringify(statusDiffers.slice(0, 3))}`);

  const open = await rows(db, sql<{ status: string; n: string }>`select status, count(*) as n from transactions where status not in ('COMPLETED', 'FAILED') group by status`);
  if (open.length > 0) violation('settled', `transactions still open after the run: ${JSON.stringify(open)}`);
  return violations;
}
