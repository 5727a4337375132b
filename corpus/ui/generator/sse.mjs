// sse.mjs finds the events of a UI message stream as the SDK's client
// frames them, with the byte offset at which each one's blank line ends.
//
// The client (parseJsonEventStream in @ai-sdk/provider-utils) decodes the
// body with TextDecoderStream and frames it with eventsource-parser's
// EventSourceParserStream, which has no flush: an event without its blank
// line at the end of the body is dropped, and so is a \r at the very end
// (the parser holds a trailing \r back until it sees whether \n follows).
//
// eventsource-parser reports events, not offsets, so the offsets come from
// a small line splitter here; the events it finds are checked against the
// parser's own (the one copy every installed release resolves to), fed
// the whole decoded body as the client is fed a body that arrives in one
// piece.

import { createParser } from 'eventsource-parser';

// decode returns the body's text as TextDecoder gives it (BOM stripped,
// invalid UTF-8 as U+FFFD) and, for each UTF-16 unit, the offset just past
// the byte that completed it.
function decode(bytes) {
  const decoder = new TextDecoder();
  let text = '';
  const ends = [];
  for (let i = 0; i < bytes.length; i++) {
    const t = decoder.decode(bytes.subarray(i, i + 1), { stream: true });
    text += t;
    for (let k = 0; k < t.length; k++) ends.push(i + 1);
  }
  const rest = decoder.decode();
  text += rest;
  for (let k = 0; k < rest.length; k++) ends.push(bytes.length);
  if (text !== new TextDecoder().decode(bytes)) throw new Error('decoding byte by byte differs from decoding the whole body');
  return { text, ends };
}

// parserEvents returns the data of the events eventsource-parser
// dispatches for text fed in one piece, and of the one a blank line added
// at the end would dispatch (or null).
function parserEvents(text) {
  const data = [];
  const parser = createParser({ onEvent: (e) => data.push(e.data) });
  if (text !== '') parser.feed(text);
  const n = data.length;
  parser.feed('\n\n');
  return { data: data.slice(0, n), unterminated: data.length > n ? data[n] : null };
}

// sseEvents returns {events, unterminated} for the body bytes: events is
// [{index, end, data}] in dispatch order, end being the offset just past
// the line end of the blank line that dispatched the event. unterminated
// is the data of an event the body left without its blank line, which the
// client drops silently, or null.
export function sseEvents(bytes) {
  const { text, ends } = decode(bytes);
  const events = [];
  let data = '';
  let dataLines = 0;
  let i = 0;
  let lineStart = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '\n' && c !== '\r') {
      i++;
      continue;
    }
    if (c === '\r' && i === text.length - 1) break; // held back, never read
    const termEnd = c === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
    const line = text.slice(lineStart, i);
    if (line === '') {
      if (dataLines > 0) events.push({ index: events.length, end: ends[termEnd - 1], data });
      data = '';
      dataLines = 0;
    } else {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') {
        data = dataLines === 0 ? value : `${data}\n${value}`;
        dataLines++;
      }
    }
    i = termEnd;
    lineStart = i;
  }
  const want = parserEvents(text);
  if (want.data.length !== events.length || want.data.some((d, k) => d !== events[k].data)) {
    throw new Error(`the line splitter found ${events.length} events, eventsource-parser ${want.data.length}`);
  }
  return { events, unterminated: want.unterminated };
}
