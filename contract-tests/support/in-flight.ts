// The in-flight Idempotency-Key rule, for any keyed request: a duplicate sent while the first is
// still running (held by the server's x-test-delay-ms control) is 409 IDEMPOTENCY_KEY_IN_USE, and
// the first still succeeds. Needs PostgreSQL: PGlite serialises, so the duplicate would wait.
import { expect } from 'vitest';
import { errorOf } from './api.ts';

/** `send` sends the same keyed request each time, with extra headers. */
export async function expectInFlightConflict(send: (headers?: Record<string, string>) => Promise<Response>): Promise<void> {
  const slow = send({ 'x-test-delay-ms': '1500' });
  await new Promise((resolve) => setTimeout(resolve, 400));
  const duplicate = await send();
  expect(duplicate.status).toBe(409);
  expect(await errorOf(duplicate)).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
  expect((await slow).status).toBeLessThan(300);
}
