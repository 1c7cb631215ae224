/**
 * Cleaning an issue body for retrieval, by its markup: the issue-text cleaners of the text stage
 * (`src/text/clean.ts`) with their defaults — formatting removed, code and noformat blocks kept
 * as text (the best setting of "file localisation for issues at large").
 */
import { cleanIssueText, type CleanOptions } from '../text/clean.js';
import type { BodyFormat } from './types.js';

/**
 * The cleaned text of an issue body.
 *
 * @param raw the body as the source gives it.
 * @param format its markup (`text`: whitespace tidied only).
 * @param options cleaning options (`src/text/clean-options.ts`); defaults as above.
 */
export function cleanBody(raw: string, format: BodyFormat, options?: CleanOptions): string {
  if (raw === '') return '';
  return cleanIssueText(raw, format, options);
}
