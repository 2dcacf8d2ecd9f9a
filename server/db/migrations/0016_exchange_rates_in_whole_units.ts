// A quote's (and its transaction's) exchangeRate is sending-currency units per receiving-currency
// unit in whole units, as the product specification defines it; earlier versions stored it in
// smallest units, off by 10^(receiving decimals − sending decimals) between currencies of different
// decimals (a factor of a million from USD to BTC). Stored rates are rescaled: exact, since a power
// of ten changes no significant digit. The decimals are those the service gave each currency when
// these rates were stored (server/shared/currencies.ts); any other currency has 2.
import { type Kysely, sql } from 'kysely';

const DECIMALS = sql`(values ('USD', 2), ('EUR', 2), ('GBP', 2), ('MXN', 2), ('AED', 2), ('CAD', 2), ('BRL', 2), ('INR', 2),
  ('PHP', 2), ('NGN', 2), ('JPY', 0), ('KWD', 3), ('BTC', 8), ('USDC', 6))`;

async function rescale(db: Kysely<unknown>, direction: 1 | -1): Promise<void> {
  const shift = (sending: ReturnType<typeof sql>, receiving: ReturnType<typeof sql>) => sql`(${receiving} - ${sending}) * ${direction}`;
  await sql`update quotes q
    set details = jsonb_set(q.details, '{exchangeRate}', to_jsonb(trim_scale((q.details ->> 'exchangeRate')::numeric * 10::numeric ^ ${shift(sql`coalesce(s.d, 2)`, sql`coalesce(r.d, 2)`)})))
    from quotes q2
      left join ${DECIMALS} as s (code, d) on s.code = q2.sending_currency
      left join ${DECIMALS} as r (code, d) on r.code = q2.receiving_currency
    where q2.id = q.id and coalesce(s.d, 2) <> coalesce(r.d, 2) and q.details ? 'exchangeRate'`.execute(db);
  // A transaction names its currencies' decimals in sentAmount and receivedAmount.
  await sql`update transactions
    set details = jsonb_set(details, '{exchangeRate}', to_jsonb(trim_scale((details ->> 'exchangeRate')::numeric * 10::numeric ^ ${shift(sql`(details #>> '{sentAmount,currency,decimals}')::int`, sql`(details #>> '{receivedAmount,currency,decimals}')::int`)})))
    where details ? 'exchangeRate' and details #>> '{sentAmount,currency,decimals}' <> details #>> '{receivedAmount,currency,decimals}'`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rescale(db, 1);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rescale(db, -1);
}
