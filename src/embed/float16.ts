/**
 * IEEE 754 binary16 ("half") → number. Node 20 has no Float16Array, so onnxruntime's float16
 * outputs reach JavaScript as their raw bits in a Uint16Array (transformers.js `Tensor.data`).
 * Sign 1 bit, exponent 5 bits (bias 15), fraction 10 bits; exponent 0 is zero or subnormal
 * (fraction · 2^−24), exponent 31 is ±Infinity or NaN.
 */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}
