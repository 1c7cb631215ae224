// A Python file whose ids are shared by `@overload` stubs and their implementation: `Response.iter_content`
// (stubs at lines 4–7, the implementation at 8–10) and `parse` (a stub at 12–13, the implementation at 14–16).
export const OVERLOAD_SOURCE = [
  'from typing import overload',
  '',
  'class Response:',
  '    @overload',
  '    def iter_content(self, size: int) -> bytes: ...',
  '    @overload',
  '    def iter_content(self, size: None) -> str: ...',
  '    def iter_content(self, size=None):',
  '        chunks = stream_decode_response_unicode(self.raw, size)',
  '        return iter_slices(chunks, size)',
  '',
  '@overload',
  'def parse(x: int) -> int: ...',
  'def parse(x):',
  '    n = int(x)',
  '    return n',
  '',
].join('\n');
