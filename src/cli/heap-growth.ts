/**
 * The young generation's growth, held at its first size by bin/issueloc.js for a `localize` call
 * (short: fewer pages touched), and its larger interrupt budget (less TurboFan work in vain), both
 * given back when the call turns out long (it builds an index, reads the git history, embeds,
 * adapts a model).
 */
import { setFlagsFromString } from 'node:v8';

let restored = false;

/**
 * Sets V8's young-generation growth back to its default (factor 2) and the interrupt budget to
 * that of every command (bin/issueloc.js); once per process.
 */
export function restoreHeapGrowth(): void {
  if (restored) return;
  restored = true;
  setFlagsFromString('--semi-space-growth-factor=2');
  setFlagsFromString('--interrupt-budget=1081344');
}
