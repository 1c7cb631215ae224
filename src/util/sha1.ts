/**
 * SHA-1 of a short text for cache names (index settings keys, the repository's folder and history
 * names, feature versions): @noble/hashes' audited JavaScript SHA-1 (FIPS 180-4), so a `localize`
 * call need not load `node:crypto` (OpenSSL's start-up cost ≈ 7 ms CPU and 10–25 ms wall before
 * it hashed a byte). The digest is the standard one, so every name stays what
 * `createHash('sha1')` made; bulk data (blobs, model files) still goes through `node:crypto`,
 * which is faster per byte.
 */
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** The SHA-1 digest of `data` (a string is hashed as its UTF-8 bytes): 40 lower-case hex digits. */
export function sha1Hex(data: string | Uint8Array): string {
  return bytesToHex(sha1(typeof data === 'string' ? utf8ToBytes(data) : data));
}
