// Idempotency under races on two server processes and one PostgreSQL database: idempotency-races-suite.ts.
import { idempotencyRaces } from './idempotency-races-suite.ts';

idempotencyRaces('idempotency races: two processes, one PostgreSQL database', 2);
