// Identifiers of the product specification's twelve types are `<Type>:<uuid>`; every other id the
// API shows is an opaque UUID (spec/guides/conventions.md). Ids of rows the API never shows (jobs,
// ledger movements, e-mails) keep a prefix of their own, for logs. Ids are random (unguessable),
// so they reveal nothing.
import { randomUUID } from 'node:crypto';

export type IdType =
  | 'Customer' | 'InternalAccount' | 'ExternalAccount' | 'EmbeddedWallet' | 'AuthMethod' | 'Quote' | 'Transaction'
  | 'BeneficialOwner' | 'Token' | 'Agent' | 'AgentAction' | 'Lookup';

/** An internal row's id, never shown by the API. */
export type InternalIdType = 'Job' | 'Movement' | 'Email';

export const newId = (type: IdType | InternalIdType): string => `${type}:${randomUUID()}`;

/** An id without a type: documents, verifications, sessions, webhook events, platforms, signed-retry requests. */
export const newOpaqueId = (): string => randomUUID();

// Earlier versions gave opaque ids a prefix (`Document:<uuid>`); those rows keep them.
const ID = /^(?:[A-Za-z]+:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Whether a string has the shape of an id the service issues (typed or opaque). */
export const isId = (value: string): boolean => ID.test(value);
