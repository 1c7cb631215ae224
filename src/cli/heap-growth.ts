/**
 * The young generation's growth, held at its first size by bin/issueloc.js for a `localize` call
 * (short: fewer pages touched), given back when the call turns out long (it builds an index, reads
 * the git history, embeds, adapts a model).
 */
import { setFlagsFromString } from 'node:v8';

let restored = false;

/** Sets V8's young-generation growth back to its default (factor 2); once per process, a no-op when it was never held. */
export function restoreHeapGrowth(): void {
  if (restored) return;
  restored = true;
  setFlagsFromString('--semi-space-growth-factor=2');
}
