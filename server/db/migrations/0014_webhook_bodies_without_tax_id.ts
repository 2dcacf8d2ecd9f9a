// Webhook bodies are stored in the outbox as they are sent, so they carry no identity numbers: a
// customer-status event of a business leaves `businessInfo.taxId` out. Events an earlier version
// stored with it lose it here (undelivered ones are then sent without it, as new ones are).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update webhook_outbox set payload = payload #- '{data,businessInfo,taxId}'
    where type like 'CUSTOMER_KYB_%' and payload #> '{data,businessInfo}' ? 'taxId'`.execute(db);
}

// What was removed is not kept anywhere: there is nothing to put back.
export async function down(): Promise<void> {}
