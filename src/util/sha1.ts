/**
 * SHA-1 (FIPS 180-4, section 6.1) of a short text, in JavaScript: the cache names of a call
 * (index settings keys, the repository's folder and history names, feature versions) are SHA-1
 * hex digests, and loading `node:crypto` for them cost a `localize` call ≈ 7 ms CPU and 10–25 ms
 * wall (OpenSSL's start-up) before it hashed a byte. The digest is the standard one, so every
 * name stays what `createHash('sha1')` made; bulk data (blobs, model files) still goes through
 * `node:crypto`, which is faster per byte.
 */

/** The SHA-1 digest of `data` (a string is hashed as its UTF-8 bytes): 40 lower-case hex digits. */
export function sha1Hex(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const n = bytes.length;
  // the message, a 1 bit, zeros, and the length in bits as a 64-bit big-endian number: 64-byte blocks
  const total = (((n + 8) >>> 6) + 1) << 6;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[n] = 0x80;
  const bits = n * 8;
  const view = new DataView(m.buffer);
  view.setUint32(total - 8, Math.floor(bits / 0x100000000));
  view.setUint32(total - 4, bits >>> 0);
  let h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe, h3 = 0x10325476, h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let block = 0; block < total; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getInt32(block + 4 * t);
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4;
    for (let t = 0; t < 80; t++) {
      let f: number, k: number;
      if (t < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
      else if (t < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
      else if (t < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc; }
      else { f = b ^ c ^ d; k = 0xca62c1d6; }
      const temp = (((a << 5) | (a >>> 27)) + f + e + k + w[t]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}
