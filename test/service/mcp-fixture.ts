// The repository and issue of the MCP tests.
import { commitFiles } from '../repo/git-fixture.js';

export const PARSE_PY = [
  'import re', '', '',
  'def parse_date(text):', '    """Parse a date such as 2024-01-31."""', '    parts = text.split("-")', '    return int(parts[0]), int(parts[1]), int(parts[2])', '', '',
  'class DateFormatter:', '    def format_date(self, year, month, day):', '        return f"{year}-{month}-{day}"', '',
].join('\n');

/** A small repository whose parse_date is what an issue about parsing dates needs changed. */
export function buildDemoRepo(dir: string): string {
  return commitFiles(dir, {
    'pkg/parse.py': PARSE_PY,
    'pkg/json_io.py': 'import json\n\n\ndef dump_json(value):\n    return json.dumps(value)\n',
    'pkg/color.py': 'def color_name(rgb):\n    return "red" if rgb[0] > 128 else "blue"\n',
    'README.md': '# demo\n',
  });
}

export const ISSUE = 'parse_date fails on an empty text\nCalling parse_date("") raises IndexError instead of ValueError.';
