// The master key the Keyring derives every key from: PAYMENTS_MASTER_KEY when set (required in
// production, and whenever server processes on different machines share one database), otherwise
// a key file created on the first start beside the local database. A throwaway in-memory database
// gets a throwaway key.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Keyring } from '../shared/keyring.ts';

/** The parts of the configuration (config.ts) that say where the key comes from. */
export interface MasterKeySettings {
  masterKey: Buffer | undefined;
  masterKeyFile: string;
  databaseUrl: string | undefined;
  pgliteDataDir: string;
}

export function loadMasterKey(config: MasterKeySettings): { key: Buffer; source: string } {
  if (config.masterKey !== undefined) return { key: config.masterKey, source: 'PAYMENTS_MASTER_KEY' };
  if (config.databaseUrl === undefined && config.pgliteDataDir.startsWith('memory://')) return { key: Keyring.generateMasterKey(), source: 'a throwaway key (in-memory database)' };
  mkdirSync(dirname(config.masterKeyFile), { recursive: true });
  try {
    // 'wx': of two processes starting at once, one writes the file and the other reads it.
    writeFileSync(config.masterKeyFile, `${Keyring.generateMasterKey().toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(readFileSync(config.masterKeyFile, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${config.masterKeyFile} does not hold a 32-byte base64 key.`);
  return { key, source: config.masterKeyFile };
}
