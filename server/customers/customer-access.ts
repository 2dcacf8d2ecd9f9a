// Loading a customer for an operation: another platform's customer is 404, and a deleted one can be
// read but not changed, verified or given owners or documents (410 CUSTOMER_DELETED).
import type { Db } from '../db/database.ts';
import { gone, notFound } from '../http/errors.ts';
import { findCustomer, findCustomerForUpdate, type CustomerRow } from './customers.repository.ts';

export async function requireCustomer(db: Db, platformId: string, customerId: string): Promise<CustomerRow> {
  const row = await findCustomer(db, platformId, customerId);
  if (row === undefined) throw notFound('CUSTOMER_NOT_FOUND', 'No such customer.');
  return row;
}

/** The customer, locked for the rest of the transaction, when it may still be changed. */
export async function requireLiveCustomer(db: Db, platformId: string, customerId: string): Promise<CustomerRow> {
  const row = await findCustomerForUpdate(db, platformId, customerId);
  if (row === undefined) throw notFound('CUSTOMER_NOT_FOUND', 'No such customer.');
  if (row.is_deleted) throw gone('The customer has been deleted and can no longer be changed.');
  return row;
}
