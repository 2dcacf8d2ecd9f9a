// Fault injection for the contract suite, active only when NODE_ENV=test: a request header can
// hold the handler's database transaction open for a while (to make an in-flight Idempotency-Key
// duplicate observable) or make it fail after its work is done (to prove a 5xx leaves no effect
// and is not stored). Production ignores the headers.
const enabled = process.env.NODE_ENV === 'test';

export async function afterHandler(headers: Record<string, string | undefined>): Promise<void> {
  if (!enabled) return;
  const delay = Number(headers['x-test-delay-ms'] ?? 0);
  if (delay > 0) await new Promise((r) => setTimeout(r, Math.min(delay, 10_000)));
  if (headers['x-test-fail-after-handler'] === 'true') throw new Error('injected failure after the handler ran');
}
