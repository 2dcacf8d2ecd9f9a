// Generated UMA addresses: `$<name>.<random>@<platform domain>`. The name part only makes the
// address readable; the 48 random bits make it unique (the database constraint is the guard).
import { randomBytes } from 'node:crypto';

export function generateUmaAddress(name: string | undefined, domain: string): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 40)
    .replace(/\.+$/, '');
  return `$${slug === '' ? 'customer' : slug}.${randomBytes(6).toString('hex')}@${domain}`;
}
