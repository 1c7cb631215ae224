/**
 * Import circles between files: the strongly connected components (Tarjan 1972) of the import
 * graph that hold more than one file, or a file importing itself.
 */
import type { ImportEdge } from './layer-rules.js';

/** Each circle as its files, sorted; circles sorted by their first file. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    // Iterative Tarjan: frames of (node, position in its successor list).
    const frames: [string, number][] = [[start, 0]];
    index.set(start, counter); low.set(start, counter++); stack.push(start); onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const [node, at] = frame;
      const successors = next.get(node)!;
      if (at < successors.length) {
        frame[1] = at + 1;
        const succ = successors[at];
        if (!index.has(succ)) {
          index.set(succ, counter); low.set(succ, counter++); stack.push(succ); onStack.add(succ);
          frames.push([succ, 0]);
        } else if (onStack.has(succ)) {
          low.set(node, Math.min(low.get(node)!, index.get(succ)!));
        }
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do { member = stack.pop()!; onStack.delete(member); component.push(member); } while (member !== node);
        if (component.length > 1 || successors.includes(node)) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}
