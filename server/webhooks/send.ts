// Signs and posts one webhook with the Standard Webhooks scheme (the `standardwebhooks` package),
// so any Standard Webhooks library verifies it.
import { Webhook } from 'standardwebhooks';

export const DELIVERY_TIMEOUT_MS = 15_000;

export interface DeliveryResult {
  responseStatus: number;
  responseBody: string;
  error?: string;
}

export async function sendWebhook(endpoint: string, secret: string, event: { id: string; body: string; at: Date }): Promise<DeliveryResult> {
  const signature = new Webhook(secret).sign(event.id, event.at, event.body);
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(event.at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: event.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    return { responseStatus: response.status, responseBody: (await response.text()).slice(0, 10_000) };
  } catch (error) {
    return { responseStatus: 0, responseBody: '', error: error instanceof Error ? error.message : String(error) };
  }
}
