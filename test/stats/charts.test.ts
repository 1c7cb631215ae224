import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { correlationHeatmapSpec, typeMetricChartSpec } from '../../src/stats/chart-specs.js';
import { renderSvg, svgToPng, writeChart } from '../../src/stats/chart-render.js';
import { IssuelocError } from '../../src/errors.js';

function pngSize(png: Uint8Array): { w: number; h: number } {
  const b = Buffer.from(png);
  assert.deepEqual([...b.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
}

test('per-type metric chart renders to SVG and PNG; undefined values are dropped and counted', async () => {
  const spec = typeMetricChartSpec([
    { group: 'Bug (n=12)', metric: 'P@1', value: 0.3 }, { group: 'Task (n=4)', metric: 'P@1', value: 0.1 },
    { group: 'Bug (n=12)', metric: 'MRR', value: 0.45 }, { group: 'Task (n=4)', metric: 'MRR', value: null },
  ], 'BM25F, Maven');
  const svg = await renderSvg(spec);
  assert.match(svg, /^<svg[^>]*width="\d+"/);
  for (const s of ['BM25F, Maven', 'Bug (n=12)', 'Task (n=4)', 'MRR', '1 value without a defined value not shown']) assert.ok(svg.includes(s), s);
  assert.ok(!svg.includes('NaN'));
  const png = svgToPng(svg, { scale: 1 });
  const w = Number(/width="(\d+)"/.exec(svg)?.[1]);
  assert.equal(pngSize(png).w, w);
  assert.equal(pngSize(svgToPng(svg)).w, 2 * w);
});

test('Spearman heatmap prints rho, marks p < 0.05 and shows – for undefined cells', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-charts-'));
  try {
    const spec = correlationHeatmapSpec([
      { row: 'Maven', metric: 'MRR', rho: 0.123, p: 0.01 }, { row: 'Maven', metric: 'RP', rho: -0.05, p: 0.4 },
      { row: 'Tomcat', metric: 'MRR', rho: null, p: null }, { row: 'Tomcat', metric: 'RP', rho: 0.2, p: 0.2 },
    ], 'Identifiers vs metrics');
    const [svgPath, pngPath] = await writeChart(join(dir, 'fig6'), spec);
    const svg = readFileSync(svgPath, 'utf8');
    for (const s of ['0.12*', '-0.05', '0.20', '–', 'Tomcat', '1 cell without a defined value not shown']) assert.ok(svg.includes(s), s);
    assert.ok(!svg.includes('NaN'));
    assert.ok(pngSize(readFileSync(pngPath)).h > 100);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a spec that does not compile throws IssuelocError', async () => {
  await assert.rejects(renderSvg({ mark: 'nonsense', data: { values: [] } } as never), IssuelocError);
});
