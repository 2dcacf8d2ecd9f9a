// Customers: create, list, get, update, delete.
import type { AreaHandlers } from '../context/handler-types.ts';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from './customers.service.ts';

export const customerHandlers: AreaHandlers<'createCustomer' | 'listCustomers' | 'getCustomer' | 'updateCustomer' | 'deleteCustomer'> = {
  createCustomer: async (req, ctx) => ({ status: 201, body: await createCustomer(ctx, req.body) }),
  listCustomers: async (req, ctx) => ({ status: 200, body: await listCustomers(ctx, req.query) }),
  getCustomer: async (req, ctx) => ({ status: 200, body: await getCustomer(ctx, req.path.customerId) }),
  updateCustomer: async (req, ctx) => ({ status: 200, body: await updateCustomer(ctx, req.path.customerId, req.body) }),
  deleteCustomer: async (req, ctx) => ({ status: 200, body: await deleteCustomer(ctx, req.path.customerId) }),
};
