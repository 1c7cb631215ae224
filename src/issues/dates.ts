/**
 * Dates of issue sources to ISO 8601 UTC: RFC 2822 (Jira XML `Wed, 13 Apr 2011 02:34:34 +0000`),
 * ISO 8601 (GitHub `2020-01-02T03:04:05Z`, Jira REST `2011-04-13T02:34:34.000+0000`), Jira CSV
 * (`13/Apr/11 2:34 AM`), `YYYY-MM-DD hh:mm:ss` (read as UTC), and Unix seconds.
 */

const MONTHS: Record<string, number> = {
  jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11,
};

/**
 * Parses a date of an issue source.
 *
 * @returns ISO 8601 UTC (`toISOString()`), or null for null/empty input.
 * @throws Error `unreadable date '<text>'` when the text matches no known form.
 */
export function toIsoDate(input: unknown): string | null {
  if (input === null || input === undefined || input === '') return null;
  if (typeof input === 'number') return new Date(input * (input < 1e11 ? 1000 : 1)).toISOString();
  const text = String(input).trim();
  if (/^\d{9,13}$/.test(text)) return toIsoDate(Number(text));
  // Jira REST: +0000 without colon is not ISO for Date.parse on every engine: add it
  const iso = text.match(/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/);
  if (iso) {
    const zone = iso[3] === undefined ? 'Z' : iso[3] === 'Z' ? 'Z' : `${iso[3].slice(0, 3)}:${iso[3].slice(-2)}`;
    const t = Date.parse(`${iso[1]}T${iso[2]}${zone}`);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(`${text}T00:00:00Z`).toISOString();
  // Jira CSV: 13/Apr/11 2:34 AM
  const csv = text.match(/^(\d{1,2})\/([A-Za-z]{3})\/(\d{2,4}) (\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?$/i);
  if (csv && MONTHS[csv[2].toLowerCase()] !== undefined) {
    let year = Number(csv[3]);
    if (year < 100) year += year < 70 ? 2000 : 1900;
    let hour = Number(csv[4]) % (csv[7] ? 12 : 24);
    if (csv[7] && csv[7].toUpperCase() === 'PM') hour += 12;
    return new Date(Date.UTC(year, MONTHS[csv[2].toLowerCase()], Number(csv[1]), hour, Number(csv[5]), Number(csv[6] ?? 0))).toISOString();
  }
  // RFC 2822 and other forms Date.parse knows
  if (/[A-Za-z]{3}/.test(text)) {
    const t = Date.parse(text);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  throw new Error(`unreadable date '${text}'`);
}
