import type { components } from '../../generated/openapi.js';
import { iso } from '../shared/clock.ts';
import { compact } from '../shared/compact.ts';
import { Keyring } from '../shared/keyring.ts';
import type { BeneficialOwnerRow } from './beneficial-owners.repository.ts';

/** Line terminators (the answer's pattern, `.`, refuses them) and the other control characters. */
const UNSHOWABLE = /[\p{Cc}\u2028\u2029]/u;

/**
 * `****` and the last four characters: which number is on file, not the number (nothing of one of
 * four characters or fewer). Characters are code points, so a pair of UTF-16 units is never cut in
 * half. The released contract takes any text as an identifier; one with a control character or a
 * line terminator among its last four shows none of them, never an answer the contract refuses.
 */
export const maskIdentifier = (identifier: string): string => {
  const characters = [...identifier];
  const last = characters.length > 4 ? characters.slice(-4).join('') : '';
  return `****${UNSHOWABLE.test(last) ? '' : last}`;
};

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
