// A database holds values sealed with one master key; opened with another, every webhook would
// fail to sign and every sealed value to open. The first start records the key's fingerprint;
// a later start with another key stops with a message instead of failing request by request.
import type { ServiceContext } from '../context/context.ts';
import { findKeyFingerprint, insertKeyFingerprint } from './keys.repository.ts';

export class WrongKeyError extends Error {}

export async function checkMasterKey(ctx: ServiceContext, keySource: string): Promise<void> {
  await insertKeyFingerprint(ctx.db, ctx.keys.fingerprint, ctx.clock.now());
  if ((await findKeyFingerprint(ctx.db)) !== ctx.keys.fingerprint) {
    throw new WrongKeyError(
      `This database was set up with another master key than the one from ${keySource}. ` +
        'Use the PAYMENTS_MASTER_KEY (or master.key file) it was created with; every server process sharing a database needs the same key.',
    );
  }
}
