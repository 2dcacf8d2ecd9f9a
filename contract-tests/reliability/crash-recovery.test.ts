// kill -9 of one of two server processes in the middle of load, then a restart: crash-recovery-run.ts.
import { describe, it } from 'vitest';
import { cleanupsAfterFile } from '../support/file-cleanups.ts';
import { crashRecovery } from './crash-recovery-run.ts';

const cleanups = cleanupsAfterFile();

describe('crash recovery', () => {
  it('kill -9 of one of two processes under load, then a restart: every outcome and webhook once, nothing lost', () => crashRecovery(cleanups, 2), 300_000);
});
