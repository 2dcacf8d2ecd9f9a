// The ordered list of migrations. Listed in code (not read from disk) so that they run the same
// under tsx, bundlers and tests.
import type { Migration } from 'kysely/migration';
import * as platformCore from './0001_platform_core.ts';
import * as webhookOutbox from './0002_webhook_outbox.ts';

export const migrations: Record<string, Migration> = {
  '0001_platform_core': platformCore,
  '0002_webhook_outbox': webhookOutbox,
};
