/**
 * The feature registry of the learned ranker: every feature of a candidate, in the column order
 * of its feature vector, with its group, one-line doc and normalisation. A feature is one entry
 * in its group's module (src/ltr/features/*.ts); the extractor (src/ltr/features/extract.ts), the docs
 * table (docs/learning-to-rank.md, `npm run docs:features`) and the feature cache's key
 * ({@link FEATURE_VERSION}) follow from this list.
 *
 * Models name features by name (src/ltr/model.ts), so adding, removing or reordering features
 * keeps old model files readable; the column order still matters to training (binning, ties).
 */
import type { FeatureGroup, Normalisation } from './group.js';
import { lexicalGroup } from './lexical.js';
import { fileGroup } from './file.js';
import { callsGroup } from './calls.js';
import { signalsGroup } from './signals.js';
import { namesGroup } from './names.js';
import { historyGroup } from './history.js';
import { shapeGroup } from './shape.js';
import { languageGroup } from './language.js';
import { moduleFilesGroup } from './module-files.js';
import { graphGroup } from './graph.js';
import { sha1Hex } from '../../util/sha1.js';

/** The groups, in column order. */
export const FEATURE_GROUPS = [lexicalGroup, fileGroup, callsGroup, signalsGroup, namesGroup, historyGroup, shapeGroup,
  languageGroup, moduleFilesGroup, graphGroup] as const;

type NamesOf<G> = G extends FeatureGroup<infer _R, infer N> ? N : never;
/** The name of a feature. */
export type FeatureName = NamesOf<(typeof FEATURE_GROUPS)[number]>;

/** A feature as the registry lists it. */
export interface FeatureEntry {
  name: FeatureName;
  /** Its group's name. */
  group: string;
  /** One line (Markdown). */
  doc: string;
  normalise: Normalisation;
}

/** Every feature, in column order. */
export const FEATURE_REGISTRY: readonly FeatureEntry[] = FEATURE_GROUPS.flatMap((g: FeatureGroup<unknown>) =>
  Object.entries(g.features).map(([name, f]) => ({ name: name as FeatureName, group: g.name, doc: f.doc, normalise: f.normalise })));

/** The feature names, in the order of a candidate's feature vector. */
export const FEATURES: readonly FeatureName[] = FEATURE_REGISTRY.map((f) => f.name);

/**
 * Bump when feature values change meaning while the registry's names, groups and normalisations
 * stay (3: history features over the base commit's ancestors only; similar issues weighed by
 * earlier issues only; 4: signals and shapes of other languages than Python — scoped names,
 * C/C++ debugger frames, JVM frames by class, Rust crate roots, unexported Go names — Python's
 * values unchanged; 5: C++/Rust/TS namespaces are qualifiers, not modules or classes — `moduleBest`,
 * `moduleCandidates`, `classInText`, `classInTitle` of units inside them — Python's unchanged; 6:
 * `frameFile`/`frameFunction` also fire on compiler, linker, test-runner and Firefox report frames
 * and JVM lambda frames — Python's unchanged). 7, 8 and 9 are taken, never to be used: measured
 * variants of the query without the fragments of split words that were not kept, whose features
 * caches hold; the next version is 10.
 */
export const FEATURE_COMPUTATION_VERSION = 6;

/**
 * Version of a feature list: the computation version and a digest of each feature's name, group
 * and normalisation in column order (its doc is left out: rewording it changes no value).
 */
export function featureVersion(features: readonly FeatureEntry[], computationVersion = FEATURE_COMPUTATION_VERSION): string {
  const digest = sha1Hex(JSON.stringify(features.map((f) => [f.name, f.group, f.normalise])));
  return `${computationVersion}.${digest.slice(0, 12)}`;
}

/**
 * Version of the registry's features, part of the feature cache's key (src/ltr/feature-cache.ts),
 * so a changed feature list never reads features cached for another.
 */
export const FEATURE_VERSION = featureVersion(FEATURE_REGISTRY);
