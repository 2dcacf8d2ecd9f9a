import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { compact } from '../shared/compact.ts';
import { Keyring } from '../shared/keyring.ts';
import type { BeneficialOwnerRow } from './beneficial-owners.repository.ts';

/** `****` and the last four characters: which number is on file, not the number (nothing of one of four characters or fewer). */
export const maskIdentifier = (identifier: string): string => `****${identifier.length > 4 ? identifier.slice(-4) : ''}`;

/** The owner as answered; `keys` open its sealed identifier, which is shown masked. */
export const toBeneficialOwner = (row: BeneficialOwnerRow, keys: Keyring): components['schemas']['BeneficialOwner'] =>
  compact({
    id: row.id,
    customerId: row.customer_id,
    roles: row.roles,
    ownershipPercentage: row.ownership_percentage ?? undefined,
    personalInfo: { ...row.personal_info, identifier: maskIdentifier(Keyring.isSealed(row.identifier) ? keys.open(row.identifier) : row.identifier) },
    kycStatus: row.kyc_status,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
