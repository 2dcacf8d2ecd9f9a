// Identifiers are `<Type>:<uuid>`; ids are random (unguessable), so they reveal nothing.
import { randomUUID } from 'node:crypto';

export type IdType =
  | 'Customer' | 'InternalAccount' | 'ExternalAccount' | 'Quote' | 'Transaction' | 'BeneficialOwner'
  | 'Token' | 'Agent' | 'AgentAction' | 'Lookup' | 'Document' | 'Verification' | 'PlatformConfig'
  | 'AuthMethod' | 'Session' | 'Request' | 'Event' | 'Job' | 'Movement' | 'Email';

export const newId = (type: IdType): string => `${type}:${randomUUID()}`;

const ID = /^[A-Za-z]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Whether a string has the shape of a service identifier (any type). */
export const isId = (value: string): boolean => ID.test(value);
