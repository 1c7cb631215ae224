/**
 * Cleaning an issue body for retrieval, by its markup.
 *
 * The full cleaners (HTML, Jira wiki markup, Markdown) belong to the text stage
 * (`src/text/clean.ts`); until that file exists this module uses a minimal stand-in: HTML tags
 * removed and entities decoded, wiki and Markdown bodies kept as they are.
 */
import { decodeHTML } from 'entities';
import type { BodyFormat } from './types.js';

/** The cleaners this module needs (the signatures of `src/text/clean.ts`). */
export interface BodyCleaners {
  htmlToText(html: string): string;
  jiraWikiToText(wiki: string): string;
  markdownToText(markdown: string): string;
}

/** The stand-in cleaners (see the file comment). */
export const FALLBACK_CLEANERS: BodyCleaners = {
  htmlToText: (html) =>
    decodeHTML(html.replace(/<br\s*\/?>|<\/(p|div|li|pre|h\d|tr)>/gi, '\n').replace(/<[^>]*>/g, ''))
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  jiraWikiToText: (wiki) => wiki.trim(),
  markdownToText: (markdown) => markdown.trim(),
};

let cleaners: BodyCleaners = FALLBACK_CLEANERS;

/** Replaces the cleaners (the CLI wires `src/text/clean.ts` here). */
export function setBodyCleaners(c: BodyCleaners): void {
  cleaners = c;
}

/**
 * The cleaned text of an issue body.
 *
 * @param raw the body as the source gives it.
 * @param format its markup; `text` is returned unchanged.
 */
export function cleanBody(raw: string, format: BodyFormat): string {
  if (raw === '') return '';
  switch (format) {
    case 'html':
      return cleaners.htmlToText(raw);
    case 'jira-wiki':
      return cleaners.jiraWikiToText(raw);
    case 'markdown':
      return cleaners.markdownToText(raw);
    default:
      return raw;
  }
}
