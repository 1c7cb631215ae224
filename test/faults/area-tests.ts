/**
 * The quick probes of one area of the fault suite (faults/) as node:test tests: one test per
 * probe, failing with the details of every failed try. The suite's probes run the built CLI
 * (`node bin/issueloc.js`), so `npm test` (which compiles first) runs them as a user would, with
 * one node option: WebAssembly compiled by the baseline compiler only (../util/baseline-wasm.ts).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Shared, type Area } from '../../faults/probe.js';
import { failuresOf, probesOf, runProbe } from '../../faults/suite.js';
import { CLI_NODE_ARGS } from '../../faults/interface.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Registers the tests of `area`'s quick probes (seed 1, one repetition). */
export function areaTests(area: Area): void {
  if (!CLI_NODE_ARGS.includes(BASELINE_WASM_ARGS[0])) CLI_NODE_ARGS.push(...BASELINE_WASM_ARGS);
  const shared = new Shared();
  after(() => shared.remove());
  for (const probe of probesOf(area, true)) {
    test(`${area}: ${probe.name} — ${probe.expect}`, { timeout: 180_000 }, async () => {
      const tries = await runProbe(probe, shared, { quick: true, seed: 1, repeat: 1 });
      const failed = failuresOf(tries).map((t) => `[${t.label}] ${t.failure!.kind}: ${t.failure!.detail}`);
      assert.deepEqual(failed, [], `${failed.length} of ${tries.length} tries failed`);
    });
  }
}
