// UMA invitations: created by one platform, readable and claimable by any (the invitee's platform
// claims), cancellable by their creator. `amount`/`currency` are display only: nothing moves.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('inviter_uma', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('amount', 'int8', (c) => c.check(sql`amount > 0`))
    .addColumn('currency', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED')`))
    .addColumn('invitee_uma', 'text')
    .addColumn('claimed_by_platform_id', 'text', (c) => c.references('platforms.id'))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('invitations_amount_has_currency', sql`(amount is null) = (currency is null)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invitations').execute();
}
