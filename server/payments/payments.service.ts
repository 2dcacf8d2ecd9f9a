// A payment's life, for every kind of payment (transfers, quotes, agent actions, sandbox funding and
// receipts): opened in its first visible status with its scheduled changes, or held for the
// platform's approval and started when approved, as a new one would start. Each step writes the
// transaction row, its event and its money in the caller's database transaction (payment-status.ts).
import { randomInt } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { PlatformContext } from '../context.ts';
import { findPlatformCustomerId } from '../customers/customers.service.ts';
import type { Opening } from '../ledger/ledger.service.ts';
import type { StatusChange } from '../simulation/timing.ts';
import { openTransaction, startApprovedTransaction, type NewTransaction } from './payment-status.ts';
import { scheduleNextChange } from './payments.jobs.ts';
import type { TransactionRow } from './payments.repository.ts';

type Schemas = components['schemas'];
type Status = Schemas['TransactionStatus'];
type FailureReason = Schemas['TransactionFailureReason'];

const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** A reference for the rail's memo field, as banks print it: short, unambiguous characters. */
export const newReference = (prefix: string): string =>
  `${prefix}-${Array.from({ length: 8 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('')}`;

/** `platformCustomerId` of the account's customer, for the transaction's details. */
export async function ownerFields(ctx: PlatformContext, customerId: string | null): Promise<{ platformCustomerId?: string }> {
  if (customerId === null) return {};
  const platformCustomerId = await findPlatformCustomerId(ctx, customerId);
  return platformCustomerId === undefined ? {} : { platformCustomerId };
}

/** A payment ready to open: its row, its first statuses and money, and the changes that follow. */
export interface PreparedPayment {
  draft: NewTransaction;
  path: Status[];
  opening: Opening;
  failureReason: FailureReason | null;
  later: readonly StatusChange[];
  laterFailureReason: FailureReason | null;
}

/** Who initiated a payment, when an agent did: recorded in its details. */
export type Initiator = Pick<Schemas['TransactionBase'], 'agentId' | 'agentActionId'>;

/** Opens a prepared payment, as its first visible status, and schedules what follows. */
export async function openPayment(ctx: PlatformContext, prepared: PreparedPayment, initiator: Initiator = {}): Promise<TransactionRow> {
  const draft = { ...prepared.draft, details: { ...prepared.draft.details, ...initiator } };
  return openTransaction(ctx, draft, prepared.path, prepared.opening, prepared.failureReason, (opened) => scheduleNextChange(ctx, opened, prepared.later, prepared.laterFailureReason));
}

/** Records a prepared payment that waits for the platform's approval: PENDING_APPROVAL, nothing moved. */
export async function openPaymentForApproval(ctx: PlatformContext, prepared: PreparedPayment, initiator: Initiator): Promise<TransactionRow> {
  return openTransaction(ctx, { ...prepared.draft, details: { ...prepared.draft.details, ...initiator } }, ['PENDING_APPROVAL'], { kind: 'NONE' });
}

/** Starts an approved payment (prepared again at approval) as a new one would start. */
export async function startApprovedPayment(ctx: PlatformContext, row: TransactionRow, prepared: PreparedPayment): Promise<TransactionRow> {
  // From PENDING_APPROVAL a refusal fails at once: there was no PENDING stage to leave.
  const path = prepared.path.at(-1) === 'FAILED' ? (['FAILED'] as Status[]) : prepared.path;
  const started = await startApprovedTransaction(ctx, row, path, prepared.opening, prepared.failureReason);
  await scheduleNextChange(ctx, started, prepared.later, prepared.laterFailureReason);
  return started;
}

