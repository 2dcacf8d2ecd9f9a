// The ordered list of migrations. Listed in code (not read from disk) so that they run the same
// under tsx, bundlers and tests. A migration that has run is never edited: changes get a new one.
import type { Migration } from 'kysely/migration';
import * as platformCore from './0001_platform_core.ts';
import * as webhookOutbox from './0002_webhook_outbox.ts';
import * as foundationV2 from './0003_foundation_v2.ts';
import * as ledger from './0004_ledger.ts';
import * as quotes from './0005_quotes.ts';
import * as platformFees from './0006_platform_fees.ts';
import * as invitations from './0007_invitations.ts';
import * as embeddedWallets from './0008_embedded_wallets.ts';
import * as agents from './0009_agents.ts';
import * as agentActions from './0010_agent_actions.ts';
import * as credentialCacheLeases from './0011_credential_cache_leases.ts';
import * as apiTokenChangeNotice from './0012_api_token_change_notice.ts';
import * as businessBeneficiaryFullName from './0013_business_beneficiary_full_name.ts';
import * as webhookBodiesWithoutTaxId from './0014_webhook_bodies_without_tax_id.ts';
import * as kybStatusAbsentUntilVerified from './0015_kyb_status_absent_until_verified.ts';
import * as exchangeRatesInWholeUnits from './0016_exchange_rates_in_whole_units.ts';
import * as failureLimits from './0017_failure_limits.ts';
import * as listCounts from './0018_list_counts.ts';
import * as sandboxClocks from './0019_sandbox_clocks.ts';
import * as failureLimitsSwept from './0020_failure_limits_swept.ts';

export const migrations: Record<string, Migration> = {
  '0001_platform_core': platformCore,
  '0002_webhook_outbox': webhookOutbox,
  '0003_foundation_v2': foundationV2,
  '0004_ledger': ledger,
  '0005_quotes': quotes,
  '0006_platform_fees': platformFees,
  '0007_invitations': invitations,
  '0008_embedded_wallets': embeddedWallets,
  '0009_agents': agents,
  '0010_agent_actions': agentActions,
  '0011_credential_cache_leases': credentialCacheLeases,
  '0012_api_token_change_notice': apiTokenChangeNotice,
  '0013_business_beneficiary_full_name': businessBeneficiaryFullName,
  '0014_webhook_bodies_without_tax_id': webhookBodiesWithoutTaxId,
  '0015_kyb_status_absent_until_verified': kybStatusAbsentUntilVerified,
  '0016_exchange_rates_in_whole_units': exchangeRatesInWholeUnits,
  '0017_failure_limits': failureLimits,
  '0018_list_counts': listCounts,
  '0019_sandbox_clocks': sandboxClocks,
  '0020_failure_limits_swept': failureLimitsSwept,
};
