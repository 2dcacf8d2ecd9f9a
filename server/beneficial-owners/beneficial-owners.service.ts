// Beneficial owners of business customers: add (with the automatic KYC check), list, get, update
// (a new last name runs the check again). Identity numbers are stored sealed and answered masked.
import type { components } from '../../generated/openapi.js';
import type { PlatformContext, ServiceContext } from '../context/context.ts';
import { requireLiveCustomer } from '../customers/customers.service.ts';
import { compact } from '../shared/compact.ts';
import { badRequest, conflict, invalidField, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { listPage, type Page } from '../shared/page.ts';
import { assertTransition } from '../shared/state-machine.ts';
import { kycOutcome } from '../simulation/kyc.ts';
import { toBeneficialOwner } from './beneficial-owners.mapper.ts';
import {
  findBeneficialOwner,
  insertBeneficialOwner,
  listBeneficialOwners as listRows,
  listUnsealedIdentifiers,
  setIdentifier,
  updateBeneficialOwner as updateRow,
  type BeneficialOwnerChanges,
  type BeneficialOwnerRow,
} from './beneficial-owners.repository.ts';

type Schemas = components['schemas'];
type BeneficialOwner = Schemas['BeneficialOwner'];

/** A UBO owns a share of the business: the share must be known. */
function requireShareOfUbo(roles: readonly string[], ownershipPercentage: number | null | undefined): void {
  if (roles.includes('UBO') && (ownershipPercentage === undefined || ownershipPercentage === null)) {
    throw invalidField('/ownershipPercentage', 'ownershipPercentage is required when roles include UBO.', 'required');
  }
}

export async function requireBeneficialOwner(ctx: PlatformContext, id: string): Promise<BeneficialOwnerRow> {
  const row = await findBeneficialOwner(ctx.db, ctx.platformId, id);
  if (row === undefined) throw notFound('BENEFICIAL_OWNER_NOT_FOUND', 'No such beneficial owner.');
  return row;
}

export async function createBeneficialOwner(ctx: PlatformContext, body: Schemas['BeneficialOwnerCreateRequest']): Promise<BeneficialOwner> {
  requireShareOfUbo(body.roles, body.ownershipPercentage);
  const customer = await requireLiveCustomer(ctx, body.customerId);
  if (customer.customer_type !== 'BUSINESS') throw badRequest('CUSTOMER_NOT_BUSINESS', 'Beneficial owners can only be added to business customers.');
  const { identifier, ...personalInfo } = body.personalInfo;
  // The identity check runs as the owner is added; the sandbox decides it at once.
  const kycStatus = kycOutcome(personalInfo.lastName);
  assertTransition('KycStatus', 'UNVERIFIED', kycStatus);
  const at = ctx.clock.now();
  const row = await insertBeneficialOwner(ctx.db, {
    id: newId('BeneficialOwner'),
    platform_id: ctx.platformId,
    customer_id: customer.id,
    roles: [...body.roles],
    ownership_percentage: body.ownershipPercentage ?? null,
    personal_info: compact(personalInfo),
    identifier: ctx.keys.seal(identifier),
    kyc_status: kycStatus,
    created_at: at,
    updated_at: at,
  });
  return toBeneficialOwner(row, ctx.keys);
}

export async function listBeneficialOwners(ctx: PlatformContext, query: { customerId?: string; limit?: number; cursor?: string }): Promise<Page<BeneficialOwner>> {
  return listPage(ctx.keys, query, (filters, page) => listRows(ctx.db, ctx.platformId, filters, page), (row) => toBeneficialOwner(row, ctx.keys));
}

export async function getBeneficialOwner(ctx: PlatformContext, id: string): Promise<BeneficialOwner> {
  return toBeneficialOwner(await requireBeneficialOwner(ctx, id), ctx.keys);
}

export async function updateBeneficialOwner(ctx: PlatformContext, id: string, body: Schemas['BeneficialOwnerUpdateRequest']): Promise<BeneficialOwner> {
  const current = await requireBeneficialOwner(ctx, id);
  await requireLiveCustomer(ctx, current.customer_id);
  const changes: BeneficialOwnerChanges = {};
  if (body.roles !== undefined) changes.roles = [...body.roles];
  if (body.ownershipPercentage !== undefined) changes.ownership_percentage = body.ownershipPercentage;
  requireShareOfUbo(changes.roles ?? current.roles, changes.ownership_percentage ?? current.ownership_percentage);
  if (body.personalInfo !== undefined) {
    const { identifier, ...fields } = body.personalInfo;
    changes.personal_info = { ...current.personal_info, ...compact(fields) };
    if (identifier !== undefined) changes.identifier = ctx.keys.seal(identifier);
    // A new last name is a new identity check.
    if (fields.lastName !== undefined && fields.lastName !== current.personal_info.lastName) {
      const outcome = kycOutcome(fields.lastName);
      if (outcome !== current.kyc_status) {
        assertTransition('KycStatus', current.kyc_status, outcome);
        changes.kyc_status = outcome;
      }
    }
  }
  const row = await updateRow(ctx.db, current.id, changes, current.kyc_status, ctx.clock.now());
  if (row === undefined) throw conflict('CONFLICT', 'The beneficial owner changed meanwhile; retry.');
  return toBeneficialOwner(row, ctx.keys);
}

/** Identity numbers stored before the server sealed them are sealed once, at start. */
export async function sealLegacyIdentifiers(ctx: ServiceContext): Promise<number> {
  const legacy = await listUnsealedIdentifiers(ctx.db);
  for (const o of legacy) await setIdentifier(ctx.db, o.id, ctx.keys.seal(o.identifier));
  return legacy.length;
}
