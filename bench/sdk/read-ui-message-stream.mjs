// read-ui-message-stream.mjs times the AI SDK 7's own assembly of the UI
// message stream: readUIMessageStream (ai 7.0.173, the npm alias ai-7), the
// reader behind useChat's processUIMessageStream, over the input of bench's
// BenchmarkUIAssemble, and prints Go benchmark lines that benchstat reads
// beside it.
//
//   cd bench/sdk && npm ci
//   node read-ui-message-stream.mjs ../../corpus/ui/streams/7/long-run.sse [-chunks N] [-count C]
//
// The input is what bench/uimessage_test.go's uiAssembleChunks makes from
// the long-run stream: its start, its two steps repeated until the input
// has N-1 chunks (default N = 20,000), and its finish. The chunks are
// parsed once, before any run, so only the assembly is timed (the Go side
// reads each chunk's JSON as part of its work). Each run hands the chunks
// to readUIMessageStream as a ReadableStream and reads every message it
// yields. Untimed warm-up runs come first (at least 1 and at least 2 s),
// then C timed runs (default 5), one output line each:
//
//   BenchmarkUIAssemble/input=ui-long-run-20k/impl=sdk-readuimessagestream 1 NS ns/op NS ns/chunk
//
// The SDK copies the whole message on every write (structuredClone), so its
// time per chunk grows with the stream.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { readUIMessageStream } from 'ai-7';

import { parseArgs, printConfigOf } from './harness.mjs';

const WARMUP_RUNS = 1;
const WARMUP_NS = 2_000_000_000n;
const USAGE = 'usage: node read-ui-message-stream.mjs FILE [-chunks N] [-count C]';

// input returns the chunks: the stream's start, its steps repeated to n-1
// chunks, its finish.
function input(text, n) {
  const events = [];
  for (const ev of text.split('\n\n')) {
    if (!ev.startsWith('data: ')) continue;
    const data = ev.slice('data: '.length);
    if (data !== '[DONE]') events.push(data);
  }
  const [start, steps, finish] = [events[0], events.slice(1, -1), events[events.length - 1]];
  const out = [start];
  while (out.length < n - 1) out.push(steps[(out.length - 1) % steps.length]);
  out.push(finish);
  return out.map((c) => JSON.parse(c));
}

// run reads the chunks with readUIMessageStream and returns how many
// messages it yielded and the last one.
async function run(chunks) {
  let i = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
  let yields = 0;
  let last;
  for await (const message of readUIMessageStream({ stream, onError: (err) => { throw err; } })) {
    yields++;
    last = message;
  }
  return { yields, last };
}

async function main() {
  const { file, chunks: n, count } = parseArgs(process.argv.slice(2), 'read-ui-message-stream', USAGE, { chunks: 20_000, count: 5 });
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`read-ui-message-stream: ${err.message}`);
    process.exit(1);
  }
  const chunks = input(text, n);
  const name = `input=ui-long-run-${Math.round(n / 1000)}k/impl=sdk-readuimessagestream`;
  const here = dirname(fileURLToPath(import.meta.url));
  const ai = JSON.parse(readFileSync(join(here, 'node_modules', 'ai-7', 'package.json'), 'utf8'));
  printConfigOf(`ai@${ai.version}`, 'pkg: github.com/chatwire/chatwire/bench');

  let yields;
  const start = process.hrtime.bigint();
  for (let i = 0; i < WARMUP_RUNS || process.hrtime.bigint() - start < WARMUP_NS; i++) {
    const r = await run(chunks);
    if (r.last == null || r.last.parts.length === 0) {
      console.error('read-ui-message-stream: the reading yielded no message');
      process.exit(1);
    }
    yields = r.yields;
  }
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    const got = await run(chunks);
    const ns = Number(process.hrtime.bigint() - t0);
    if (got.yields !== yields) {
      console.error(`read-ui-message-stream: run ${i + 1} yielded ${got.yields} messages, the warm-up ${yields}`);
      process.exit(1);
    }
    console.log(`BenchmarkUIAssemble/${name} 1 ${ns} ns/op ${(ns / chunks.length).toFixed(1)} ns/chunk`);
  }
}

await main();
