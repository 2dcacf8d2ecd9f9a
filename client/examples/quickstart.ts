// Create a customer and print it. With `npm start` running and the credentials it printed:
//   PAYMENTS_CLIENT_ID=... PAYMENTS_CLIENT_SECRET=... npx tsx client/examples/quickstart.ts
import { createPaymentsClient, unwrap } from '@payments-service/contract';

const api = createPaymentsClient({
  baseUrl: process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:3000/2025-10-13',
  clientId: process.env.PAYMENTS_CLIENT_ID,
  clientSecret: process.env.PAYMENTS_CLIENT_SECRET,
});

// unwrap returns the body of a success and throws a PaymentsApiError (status, code, details) otherwise.
const customer = await unwrap(api.POST('/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Jane Doe', currencies: ['USD'] } }));
console.log('created customer', customer);
