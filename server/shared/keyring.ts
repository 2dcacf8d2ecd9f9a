// The server's keys, all derived (HKDF-SHA256) from one 32-byte master key: one seals secrets that
// must stay recoverable (webhook signing secrets, identity numbers) with AES-256-GCM, so a database
// dump holds none of them in clear; one authenticates list cursors (HMAC-SHA256), so a forged
// cursor is refused before it reaches a query.
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

/** What every sealed value starts with (repositories find values stored in clear by it). */
export const SEALED_PREFIX = 'sealed.v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const derive = (master: Buffer, purpose: string): Buffer => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `payments-service/${purpose}`, 32));
// Held as KeyObjects: given a Buffer, every createHmac and createCipheriv imports the key again
// (bench/README.md).
const deriveKey = (master: Buffer, purpose: string): KeyObject => createSecretKey(derive(master, purpose));

export class Keyring {
  private readonly sealKey: KeyObject;
  private readonly macKey: KeyObject;
  /** A value derived from the key that reveals nothing of it, stored once to detect a wrong key. */
  readonly fingerprint: string;

  constructor(master: Buffer) {
    if (master.length !== 32) throw new RangeError('the master key must be 32 bytes');
    this.sealKey = deriveKey(master, 'seal');
    this.macKey = deriveKey(master, 'mac');
    this.fingerprint = derive(master, 'fingerprint').toString('base64url').slice(0, 22);
  }

  static generateMasterKey(): Buffer {
    return randomBytes(32);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string): string {
    if (!Keyring.isSealed(sealed)) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  /** A short MAC (128 bits) of `data`, base64url. */
  mac(data: string): string {
    return createHmac('sha256', this.macKey).update(data, 'utf8').digest().subarray(0, 16).toString('base64url');
  }

  verifyMac(data: string, tag: string): boolean {
    const expected = Buffer.from(this.mac(data), 'base64url');
    const given = Buffer.from(tag, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
