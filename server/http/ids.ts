// Identifiers are `<Type>:<uuid>`; ids are random (unguessable), so they reveal nothing.
import { randomUUID } from 'node:crypto';

export type IdType =
  | 'Customer' | 'InternalAccount' | 'ExternalAccount' | 'Quote' | 'Transaction' | 'BeneficialOwner'
  | 'Token' | 'Agent' | 'AgentAction' | 'Lookup' | 'Document' | 'Verification' | 'PlatformConfig'
  | 'AuthMethod' | 'Session' | 'Request' | 'Event';

export const newId = (type: IdType): string => `${type}:${randomUUID()}`;

/** Timestamps are created here, at millisecond precision, so they survive a cursor round trip. */
export const now = (): Date => new Date();
export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();
