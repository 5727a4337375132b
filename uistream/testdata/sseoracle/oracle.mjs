// oracle.mjs reads every case of cases.json with the AI SDK's own client
// parsing and writes what it gives to expected.json, the oracle of the
// uistream decoder's framing tests (framing_test.go).
//
// The parsing is the real one: parseJsonEventStream of @ai-sdk/provider-utils
// 5.0.81 (the version ai@7.0.173 depends on): TextDecoderStream, then
// eventsource-parser's EventSourceParserStream (3.1.1, the newest 3.x, which
// every fresh install of ai 5, 6 and 7 resolves to), then [DONE] skipped and
// the data parsed with secure-json-parse. The schema is z.any(): the chunk
// schema of each SDK release is package uistream/sdk's business; here only
// the framing and the JSON parse matter. Each case is also fed one byte at a
// time, and to eventsource-parser 3.0.3 (the oldest 3.x that ai 5.0.0 allows),
// to show where the chunking or the parser's version changes the reading.
//
// Inputs are JSON strings whose characters are bytes (U+0000 to U+00FF), so
// that invalid UTF-8 can be written.
//
// Run it with the packages installed in a scratch directory, not committed:
//
//	dir=$(mktemp -d) && (cd $dir && npm init -y >/dev/null &&
//	  npm install @ai-sdk/provider-utils@5.0.81 zod@4 esp303@npm:eventsource-parser@3.0.3)
//	NODE_PATH=$dir/node_modules node uistream/testdata/sseoracle/oracle.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.NODE_PATH ?? '', 'x.js'));
const { parseJsonEventStream } = require('@ai-sdk/provider-utils');
const { z } = require('zod/v4');
const { EventSourceParserStream: Stream303 } = require('esp303/stream');
const { EventSourceParserStream: StreamNew } = require('eventsource-parser/stream');
const espVersion = require('eventsource-parser/package.json').version;

function body(bytes, byByte) {
  return new ReadableStream({
    start(c) {
      if (byByte) for (const b of bytes) c.enqueue(new Uint8Array([b]));
      else c.enqueue(new Uint8Array(bytes));
      c.close();
    },
  });
}

async function events(Parser, bytes, byByte) {
  const out = [];
  const s = body(bytes, byByte).pipeThrough(new TextDecoderStream()).pipeThrough(new Parser());
  for await (const e of s) out.push(e.event === undefined ? { data: e.data } : { data: e.data, event: e.event });
  return out;
}

async function results(bytes, byByte) {
  const out = [];
  const s = parseJsonEventStream({ stream: body(bytes, byByte), schema: z.any() });
  for await (const r of s) {
    if (r.success) out.push({ value: r.value });
    else out.push({ error: r.error.name, message: r.error.cause?.message ?? r.error.message });
  }
  return out;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const cases = JSON.parse(readFileSync(path.join(here, 'cases.json'), 'utf8'));
const expected = [];
for (const c of cases) {
  const bytes = Buffer.from(c.input, 'latin1');
  const ev = await events(StreamNew, bytes, false);
  const res = await results(bytes, false);
  const e = { name: c.name, events: ev, results: res };
  const evBytes = await events(StreamNew, bytes, true);
  const resBytes = await results(bytes, true);
  if (!same(ev, evBytes) || !same(res, resBytes)) e.byte_by_byte = { events: evBytes, results: resBytes };
  for (const byByte of [false, true]) {
    const old = await events(Stream303, bytes, byByte);
    if (!same(old, byByte ? evBytes : ev)) (e.differs_3_0_3 ??= {})[byByte ? 'byte_by_byte' : 'whole'] = old;
  }
  expected.push(e);
}
const header = { parser: `@ai-sdk/provider-utils 5.0.81 parseJsonEventStream, eventsource-parser ${espVersion}, node ${process.version}` };
writeFileSync(
  path.join(here, 'expected.json'),
  `{"parser":${JSON.stringify(header.parser)},"cases":[\n${expected.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`,
);
console.log(`${expected.length} cases written to expected.json`);
