// A business beneficiary of an external account is named by `fullName`, as every beneficiary is in
// the product specification; it was `legalName`. Stored accounts are renamed in place, so that they
// are answered in the new shape (a replayed Idempotency-Key answer keeps the shape it was stored in).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update external_accounts
    set account_info = jsonb_set(account_info #- '{beneficiary,legalName}', '{beneficiary,fullName}', account_info #> '{beneficiary,legalName}')
    where account_info #>> '{beneficiary,beneficiaryType}' = 'BUSINESS' and account_info -> 'beneficiary' ? 'legalName'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update external_accounts
    set account_info = jsonb_set(account_info #- '{beneficiary,fullName}', '{beneficiary,legalName}', account_info #> '{beneficiary,fullName}')
    where account_info #>> '{beneficiary,beneficiaryType}' = 'BUSINESS' and account_info -> 'beneficiary' ? 'fullName'`.execute(db);
}
