/**
 * Regression trees and additive ensembles of them (gradient boosting, Friedman 2001, "Greedy
 * function approximation: a gradient boosting machine", Annals of Statistics 29(5), Alg. 1:
 * F_M(x) = F_0(x) + Σ_m ν · h_m(x)), as LambdaMART's models (src/ltr/lambdamart.ts), and their
 * compact JSON form in model files.
 *
 * JSON: a node is a leaf value (a number) or a split `[feature name, threshold, left, right]`
 * whose left child takes the candidates with x_feature ≤ threshold; an ensemble is
 * `{ "learningRate": ν, "trees": [node, …] }`.
 */
import { IssuelocError } from '../errors.js';

/** A tree node in a model file: a leaf value or `[feature, threshold, left, right]`. */
export type TreeNodeJson = number | [string, number, TreeNodeJson, TreeNodeJson];

/** An ensemble in a model file. */
export interface EnsembleJson {
  learningRate: number;
  trees: TreeNodeJson[];
}

/** Deepest tree a model file may hold (guards the recursive reader). */
export const MAX_TREE_DEPTH = 32;

/**
 * A binary regression tree stored as flat arrays, root at node 0. Node k is a leaf when
 * feature[k] < 0 (its value is value[k]); otherwise rows with x[feature[k]] ≤ threshold[k] go to
 * left[k], the others to right[k].
 */
export class RegressionTree {
  constructor(
    readonly feature: Int32Array,
    readonly threshold: Float64Array,
    readonly left: Int32Array,
    readonly right: Int32Array,
    readonly value: Float64Array,
  ) {}

  /** Nested JSON form, features named by `names[column]`. */
  toJson(names: readonly string[]): TreeNodeJson {
    const node = (k: number): TreeNodeJson =>
      this.feature[k] < 0 ? this.value[k] : [names[this.feature[k]], this.threshold[k], node(this.left[k]), node(this.right[k])];
    return node(0);
  }

  /**
   * Reads a nested JSON tree.
   * @param names feature names; a split's feature is its index here.
   * @param where names the tree in error messages (e.g. `m.json: trees of level file, tree 3`).
   * @throws IssuelocError (one line, prefixed by `where`) for an unknown feature, a threshold or
   *   leaf that is not a finite number, a node of another shape, or nesting deeper than
   *   {@link MAX_TREE_DEPTH}.
   */
  static fromJson(value: unknown, names: readonly string[], where: string): RegressionTree {
    const b = new TreeBuilder();
    const read = (node: unknown, depth: number): number => {
      if (typeof node === 'number') {
        if (!Number.isFinite(node)) throw new IssuelocError(`${where}: leaf value is not a finite number`);
        return b.leaf(node);
      }
      if (!Array.isArray(node) || node.length !== 4) {
        throw new IssuelocError(`${where}: a node must be a leaf value or [feature, threshold, left, right], got ${JSON.stringify(node)?.slice(0, 60)}`);
      }
      if (depth >= MAX_TREE_DEPTH) throw new IssuelocError(`${where}: tree is deeper than ${MAX_TREE_DEPTH}`);
      const [name, threshold, left, right] = node as unknown[];
      const j = typeof name === 'string' ? names.indexOf(name) : -1;
      if (j < 0) throw new IssuelocError(`${where}: unknown feature '${String(name)}' in a split`);
      if (typeof threshold !== 'number' || !Number.isFinite(threshold)) throw new IssuelocError(`${where}: threshold of a split on '${name}' is not a finite number`);
      const k = b.split(j, threshold);
      b.setChildren(k, read(left, depth + 1), read(right, depth + 1));
      return k;
    };
    read(value, 0);
    return b.build();
  }
}

/** Builds a {@link RegressionTree} node by node (any order; the first node made is the root). */
export class TreeBuilder {
  private readonly feature: number[] = [];
  private readonly threshold: number[] = [];
  private readonly left: number[] = [];
  private readonly right: number[] = [];
  private readonly value: number[] = [];

  /** Adds a leaf; returns its node index. */
  leaf(value: number): number {
    return this.add(-1, 0, value);
  }

  /** Adds a split on column `feature` (children set later); returns its node index. */
  split(feature: number, threshold: number): number {
    return this.add(feature, threshold, 0);
  }

  setChildren(node: number, left: number, right: number): void {
    this.left[node] = left;
    this.right[node] = right;
  }

  build(): RegressionTree {
    return new RegressionTree(Int32Array.from(this.feature), Float64Array.from(this.threshold), Int32Array.from(this.left),
      Int32Array.from(this.right), Float64Array.from(this.value));
  }

  private add(feature: number, threshold: number, value: number): number {
    this.feature.push(feature);
    this.threshold.push(threshold);
    this.left.push(-1);
    this.right.push(-1);
    this.value.push(value);
    return this.feature.length - 1;
  }
}

/** An additive ensemble: contribution(x) = ν · Σ_t tree_t(x) (Friedman 2001, Alg. 1). */
export class TreeEnsemble {
  constructor(readonly learningRate: number, readonly trees: readonly RegressionTree[]) {}

  /**
   * Adds every row's contribution to `scores` (in place), tree by tree in ensemble order, so
   * that scores equal those accumulated while boosting. Two rows at a time over all the trees,
   * packed in one set of arrays ({@link PackedTrees}): the two walks down a tree do not wait on
   * each other, and a child is chosen by arithmetic on the comparison, not by a branch.
   * @param x n × width values, row-major.
   */
  addTo(x: Float32Array, n: number, width: number, scores: Float64Array): void {
    const { roots, feature, threshold, child, leaf } = (this.packed ??= packTrees(this.trees, this.learningRate));
    const T = roots.length;
    // left child at child[k], right child next to it: + 1 unless x ≤ threshold (NaN goes right)
    let i = 0;
    for (let row = 0; i + 1 < n; i += 2, row += 2 * width) {
      const next = row + width;
      let s = scores[i], u = scores[i + 1];
      for (let t = 0; t < T; t++) {
        let k = roots[t], m = k;
        let j = feature[k], h = j;
        while (j >= 0 || h >= 0) {
          if (j >= 0) { k = child[k] + +!(x[row + j] <= threshold[k]); j = feature[k]; }
          if (h >= 0) { m = child[m] + +!(x[next + h] <= threshold[m]); h = feature[m]; }
        }
        s += leaf[k];
        u += leaf[m];
      }
      scores[i] = s;
      scores[i + 1] = u;
    }
    if (i < n) {
      const row = i * width;
      let s = scores[i];
      for (let t = 0; t < T; t++) {
        let k = roots[t];
        for (let j = feature[k]; j >= 0; j = feature[k]) k = child[k] + +!(x[row + j] <= threshold[k]);
        s += leaf[k];
      }
      scores[i] = s;
    }
  }

  private packed: PackedTrees | undefined;

  /** The columns some split of some tree reads (the ensemble's value depends on no other). */
  columns(): Set<number> {
    const out = new Set<number>();
    for (const t of this.trees) for (const j of t.feature) if (j >= 0) out.add(j);
    return out;
  }

  toJson(names: readonly string[]): EnsembleJson {
    return { learningRate: this.learningRate, trees: this.trees.map((t) => t.toJson(names)) };
  }

  /**
   * Reads an ensemble of a model file.
   * @param where names the ensemble in error messages.
   * @throws IssuelocError (one line) for a missing or non-positive learning rate, a missing tree
   *   list, or a bad tree (see {@link RegressionTree.fromJson}).
   */
  static fromJson(value: unknown, names: readonly string[], where: string): TreeEnsemble {
    const v = value as Partial<EnsembleJson> | null;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new IssuelocError(`${where}: must be {"learningRate": number, "trees": [...]}`);
    if (typeof v.learningRate !== 'number' || !Number.isFinite(v.learningRate) || v.learningRate <= 0) {
      throw new IssuelocError(`${where}: "learningRate" must be a positive finite number`);
    }
    if (!Array.isArray(v.trees)) throw new IssuelocError(`${where}: "trees" must be an array`);
    return new TreeEnsemble(v.learningRate, v.trees.map((t, k) => RegressionTree.fromJson(t, names, `${where}, tree ${k}`)));
  }
}

/**
 * The trees of an ensemble in one set of arrays: tree t's root is node roots[t]; a split k's left
 * child is node child[k] and its right child node child[k] + 1; a leaf (feature −1) holds its
 * contribution ν · value.
 */
interface PackedTrees {
  roots: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  child: Int32Array;
  leaf: Float64Array;
}

function packTrees(trees: readonly RegressionTree[], nu: number): PackedTrees {
  const size = trees.reduce((a, t) => a + t.feature.length, 0);
  const p: PackedTrees = {
    roots: new Int32Array(trees.length), feature: new Int32Array(size), threshold: new Float64Array(size),
    child: new Int32Array(size), leaf: new Float64Array(size),
  };
  let next = 0;
  trees.forEach((t, r) => {
    // breadth first, so that each split's two children take adjacent slots
    const queue = [0];
    const slot = [next++];
    p.roots[r] = slot[0];
    for (let q = 0; q < queue.length; q++) {
      const k = queue[q];
      const at = slot[q];
      p.feature[at] = t.feature[k];
      if (t.feature[k] < 0) {
        p.leaf[at] = nu * t.value[k];
        continue;
      }
      p.threshold[at] = t.threshold[k];
      p.child[at] = next;
      queue.push(t.left[k], t.right[k]);
      slot.push(next, next + 1);
      next += 2;
    }
  });
  return p;
}
