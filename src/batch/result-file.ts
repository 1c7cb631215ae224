/** The file every job kind writes in its result folder: one JSON value a line (what `batch collect` joins). */
export const RESULT_FILE = 'result.jsonl';
