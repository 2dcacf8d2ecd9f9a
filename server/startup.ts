// A one-time upgrade of stored data, run at every start in one transaction (a no-op once done):
// values earlier versions of the server stored in clear (webhook signing secrets, identity
// numbers, tax ids, document numbers) are sealed, so a database dump holds none of them.
import { sealLegacyIdentifiers as sealBeneficialOwnerIdentifiers } from './beneficial-owners/beneficial-owners.service.ts';
import type { ServiceContext } from './context/context.ts';
import { sealLegacyIdentifiers as sealCustomerIdentifiers } from './customers/customers.service.ts';
import { sealLegacyDocumentNumbers } from './documents/documents.service.ts';
import { sealLegacyTaxIds as sealBeneficiaryTaxIds } from './external-accounts/external-accounts.service.ts';
import { sealLegacySecrets } from './platform/platform.service.ts';

export async function sealValuesStoredInClear(ctx: ServiceContext): Promise<number> {
  return (await sealLegacySecrets(ctx)) + (await sealCustomerIdentifiers(ctx)) + (await sealBeneficialOwnerIdentifiers(ctx)) + (await sealLegacyDocumentNumbers(ctx)) + (await sealBeneficiaryTaxIds(ctx));
}
