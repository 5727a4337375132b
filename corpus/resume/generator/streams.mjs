// streams.mjs builds the response bodies of the scenarios from streams of
// the corpus: UI message streams of corpus/ui (written by the real ai 5
// server) and v4 data streams of corpus/streams (written by the real ai 4
// server), cut, shortened or altered as a scenario says.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// uiStream returns the chunks of corpus/ui/PATH.sse as objects, in order,
// without the final [DONE]. The finish chunk loses its finishReason: the
// strict schema of ai 5.0.0 to 5.0.91 rejects that key (corpus/ui's
// OUTCOMES.md), and these scenarios are about resuming, which every
// release should reach.
export function uiStream(path) {
  const text = readFileSync(join(CORPUS, 'ui', `${path}.sse`), 'utf8');
  const chunks = [];
  for (const event of text.split('\n\n')) {
    if (!event.startsWith('data: ')) continue;
    const data = event.slice('data: '.length);
    if (data === '[DONE]') continue;
    const chunk = JSON.parse(data);
    if (chunk.type === 'finish') delete chunk.finishReason;
    chunks.push(chunk);
  }
  return chunks;
}

// v4Stream returns the lines of corpus/streams/PATH.stream, each without
// its line end.
export function v4Stream(path) {
  const text = readFileSync(join(CORPUS, 'streams', `${path}.stream`), 'utf8');
  return text.split('\n').filter((l) => l !== '');
}

// An event is one SSE event: a chunk (an object), the marker '[DONE]', or
// raw text written as is (a bad event).
export function sseEvent(e) {
  if (e === '[DONE]') return 'data: [DONE]\n\n';
  if (typeof e === 'object' && e.raw !== undefined) return e.raw;
  return `data: ${JSON.stringify(e)}\n\n`;
}

// sse writes chunks as a UI message stream body, [DONE] last when done.
export function sse(chunks, { done = true } = {}) {
  return Buffer.from(chunks.map(sseEvent).join('') + (done ? sseEvent('[DONE]') : ''));
}

// v4 writes lines as a v4 data stream body.
export function v4(lines) {
  return Buffer.from(lines.map((l) => l + '\n').join(''));
}

// cutInside returns the bytes of body up to the middle of its piece k (an
// SSE event or a v4 line, as pieces splits it with framing): the
// connection broke there.
export function cutInside(body, k, framing) {
  const ps = pieces(body, framing);
  if (k >= ps.length) throw new Error(`cutInside: piece ${k} of ${ps.length}`);
  const before = ps.slice(0, k).reduce((n, p) => n + p.length, 0);
  return body.subarray(0, before + Math.floor(ps[k].length / 2));
}

// pieces splits a body as a server that flushes each part sends it: one
// piece per SSE event (framing 'sse': up to its blank line) or per v4 line
// (framing 'v4'), and what is left after the last as a final piece.
export function pieces(body, framing) {
  const text = body.toString('latin1');
  const sep = framing === 'sse' ? '\n\n' : '\n';
  const out = [];
  let start = 0;
  for (;;) {
    const i = text.indexOf(sep, start);
    if (i < 0) break;
    out.push(body.subarray(start, i + sep.length));
    start = i + sep.length;
  }
  if (start < body.length) out.push(body.subarray(start));
  return out;
}

// withMessageId returns chunks whose start chunk carries messageId id
// (none when id is undefined).
export function withMessageId(chunks, id) {
  return chunks.map((c) => {
    if (c.type !== 'start') return c;
    const { messageId, ...rest } = c;
    return id === undefined ? rest : { type: 'start', messageId: id, ...Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'type')) };
  });
}

// replaceText returns chunks whose text deltas have from replaced by to.
export function replaceText(chunks, from, to) {
  return chunks.map((c) => (c.type === 'text-delta' && c.delta.includes(from) ? { ...c, delta: c.delta.replace(from, to) } : c));
}
