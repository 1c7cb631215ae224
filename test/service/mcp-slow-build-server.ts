// `issueloc mcp` (its stdio server, src/cli/mcp.ts serveMcpStdio) on one repository whose index
// build is slowed on purpose: the build reports a file every 100 ms up to 39 of 40, then waits
// for the file named by the third argument before indexing for real (the first prepare only). Run by mcp-build-progress.test.ts:
//   node mcp-slow-build-server.js REPO CACHE GATE TIMEOUT_MS
import { existsSync } from 'node:fs';
import { serveMcpStdio } from '../../src/cli/mcp.js';
import { openLocalizer, type IssueLocalizer, type LocalizerOptions } from '../../src/pipeline/localizer.js';
import { loadServiceConfig } from '../../src/service/config.js';

const [repo, cacheDir, gate, timeoutMs] = process.argv.slice(2);
const FILES = 40;

async function slowOpen(o: LocalizerOptions): Promise<IssueLocalizer> {
  const l = await openLocalizer(o);
  let slowed = false;
  return {
    stages: l.stages, cacheDir: l.cacheDir, localize: (t, c) => l.localize(t, c), close: () => l.close(),
    prepare: async (r, p) => {
      // the build's prepare only: the pool's later ones find the commit indexed
      for (let done = 0; !slowed && (done < FILES - 1 || !existsSync(gate)); done = Math.min(done + 1, FILES - 1)) {
        p?.signal?.throwIfAborted();
        o.onProgress?.('index', done, FILES);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      slowed = true;
      return l.prepare(r, p);
    },
  };
}

const config = loadServiceConfig({ repo: [`demo=${repo}`], cacheDir, limits: { timeoutMs: Number(timeoutMs) } });
await serveMcpStdio(config, { open: slowOpen });
