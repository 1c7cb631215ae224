/**
 * Renders Vega-Lite charts to SVG (vega + vega-lite in Node, no browser, no canvas: text widths
 * are estimated) and SVG to PNG (@resvg/resvg-js, prebuilt native binaries; text uses the system
 * fonts, DejaVu Sans preferred).
 */
import { Resvg } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/**
 * Compiles a Vega-Lite spec and renders it headless to an SVG document.
 * @throws IssuelocError when the spec does not compile or render.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  try {
    const view = new View(parse(compile(spec).spec), { renderer: 'none' });
    const svg = await view.toSVG();
    view.finalize();
    return svg;
  } catch (e) {
    throw new IssuelocError(`chart could not be rendered: ${(e as Error).message}`);
  }
}

/** Options of {@link svgToPng}. */
export interface PngOptions {
  /** Pixel scale factor; default 2 (sharp on high-density screens and in print). */
  readonly scale?: number;
  /** Font family used for generic/unknown families; default `DejaVu Sans`. */
  readonly fontFamily?: string;
}

/** Rasterises an SVG document to PNG bytes. */
export function svgToPng(svg: string, options: PngOptions = {}): Uint8Array {
  const family = options.fontFamily ?? 'DejaVu Sans';
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: options.scale ?? 2 },
    font: { loadSystemFonts: true, defaultFontFamily: family, sansSerifFamily: family },
    background: 'white',
  });
  return resvg.render().asPng();
}

/**
 * Renders a chart and writes `<base>.svg` and `<base>.png` atomically.
 * @returns the two paths written.
 */
export async function writeChart(base: string, spec: TopLevelSpec, options: PngOptions = {}): Promise<string[]> {
  const svg = await renderSvg(spec);
  const png = svgToPng(svg, options);
  writeFileAtomic(`${base}.svg`, [svg]);
  writeFileAtomic(`${base}.png`, [png]);
  return [`${base}.svg`, `${base}.png`];
}
