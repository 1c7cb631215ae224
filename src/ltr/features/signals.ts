/**
 * Issue-text signal features of a candidate function: 1 when that signal of
 * src/retrieve/signals.ts fires on it (every signal resolved, whatever the pipeline's weights).
 */
import type { SignalName } from '../../retrieve/signals.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

type Fired = readonly SignalName[];
const NONE: Fired = [];
const fired = (s: SignalName) => (why: Fired) => (why.includes(s) ? 1 : 0);

const features = {
  frameFile: { doc: "1 when the function's file appears in a stack-trace frame", normalise: 'none', value: fired('frameFile') },
  frameFunction: { doc: "1 when the function is a frame's function (in the frame's file when it names one)", normalise: 'none', value: fired('frameFunction') },
  mentionedFile: { doc: "1 when the function's file is mentioned as a path or dotted module name", normalise: 'none', value: fired('mentionedFile') },
  mentionedUnit: { doc: '1 when the function (or its class) is named in a dotted name (`pkg.mod.Class.method`)', normalise: 'none', value: fired('mentionedUnit') },
  namedFunction: { doc: "1 when the function's own name is written in the issue as code", normalise: 'none', value: fired('namedFunction') },
} satisfies Record<SignalName, FeatureSpec<Fired>>;

export const signalsGroup: FeatureGroup<Fired, keyof typeof features> = {
  name: 'signals',
  features,
  prepare(ctx: CandidateContext) {
    return (i) => ctx.reasons.get(ctx.docs[i]) ?? NONE;
  },
};

/** Every signal on (weight 1): the signals whose firing the features record. */
export const ALL_SIGNALS = Object.fromEntries(Object.keys(features).map((s) => [s, 1])) as Record<SignalName, number>;
