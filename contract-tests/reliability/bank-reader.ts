// Reads while the operations run (Jepsen's bank reads): every balance through the API (none may be
// negative), and one SQL statement, so one snapshot, of the whole ledger per currency: the internal
// accounts' balances plus the platform's system accounts (settlement, in flight, sandbox funding)
// sum to zero in every committed state, because every movement's entries do and a balance changes
// only with its entries.
import pg from 'pg';
import type { Journal } from './bank-journal.ts';

const SNAPSHOT = `
  with internal as (select currency, sum(balance)::int8 as total, min(balance)::int8 as lowest from internal_accounts group by currency),
       system as (select split_part(account, ':', 3) as currency, sum(amount)::int8 as total from ledger_entries where account like 'SYSTEM:%' group by 1)
  select coalesce(i.currency, s.currency) as currency, coalesce(i.total, 0) as internal, coalesce(s.total, 0) as system, i.lowest
  from internal i full join system s on s.currency = i.currency`;

export interface Reader {
  /** Stops the loop and answers how many snapshots and API reads it made. */
  stop(): Promise<{ snapshots: number; apiReads: number }>;
}

/** At most this many violations of one kind are kept (a broken ledger breaks every snapshot). */
const KEEP = 5;

export async function startReader(databaseUrl: string, journal: Journal, accounts: ReadonlySet<string>, pauseMs = 25): Promise<Reader> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let running = true;
  let snapshots = 0;
  let apiReads = 0;
  const seen = { 'snapshot-total': 0, 'non-negative': 0, 'documented-answer': 0 };
  const report = (invariant: keyof typeof seen, detail: string) => {
    if (seen[invariant]++ < KEEP) journal.violation(invariant, detail);
  };
  const loop = (async () => {
    while (running) {
      const { rows } = await db.query<{ currency: string; internal: string; system: string; lowest: string | null }>(SNAPSHOT);
      snapshots++;
      for (const row of rows) {
        const [internal, system] = [Number(row.internal), Number(row.system)];
        if (internal + system !== 0) report('snapshot-total', `snapshot ${snapshots}, ${row.currency}: internal accounts ${internal} + system accounts ${system} = ${internal + system}, not 0`);
        if (row.lowest !== null && Number(row.lowest) < 0) report('non-negative', `snapshot ${snapshots}, ${row.currency}: a balance of ${row.lowest}`);
      }
      const listed = await journal.send({ via: apiReads, method: 'GET', path: '/customers/internal-accounts?limit=100', label: 'balance read' });
      apiReads++;
      const data = (listed.body?.data ?? []) as { id: string; balance: { amount: number } }[];
      const ours = data.filter((a) => accounts.has(a.id));
      if (listed.status !== 200 || ours.length !== accounts.size) report('documented-answer', `balance read ${apiReads}: ${listed.status}, ${ours.length} of ${accounts.size} accounts`);
      for (const account of ours) if (account.balance.amount < 0) report('non-negative', `balance read ${apiReads}: ${account.id} at ${account.balance.amount}`);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return {
    async stop() {
      running = false;
      try {
        await loop;
      } finally {
        await db.end();
      }
      return { snapshots, apiReads };
    },
  };
}
