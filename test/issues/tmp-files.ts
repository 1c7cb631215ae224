/** Temp files for issue-source tests. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp dir; `file(name, text)` writes a file in it and returns its path. */
export function tempFiles(): { file: (name: string, text: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-issues-'));
  return {
    file(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
