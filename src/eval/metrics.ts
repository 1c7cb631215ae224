/**
 * Forwarding module: the ranking metrics live in src/metrics/ranking-metrics.ts (a lower layer,
 * shared by eval, ltr and stats; see ARCHITECTURE.md). Kept only for bench/swebench-lite.ts,
 * which imports `accAtK` from here until its imports are rewired onto the library facade;
 * delete this file then. Nothing else may import it (test/architecture/layers.test.ts).
 */
export { accAtK } from '../metrics/ranking-metrics.js';
