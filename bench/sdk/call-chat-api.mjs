// call-chat-api.mjs times the AI SDK's own message assembly: callChatApi
// (@ai-sdk/ui-utils 1.2.11, the client behind useChat in ai 4.x), which runs
// processChatResponse over the response body, over the first N lines of a
// stream file, and prints Go benchmark lines that benchstat reads beside
// bench's BenchmarkAssemble.
//
//   cd bench/sdk && npm ci
//   node call-chat-api.mjs FILE -lines N [-count C]
//
// The input is what bench/assemble_test.go's assembleStream makes: the
// file's first N lines without its error parts ("3:" lines, at which the
// SDK's client throws). Each run answers callChatApi's fetch with a 200
// response whose body delivers the input in 64 KiB chunks; onUpdate and
// onFinish count what they get. Untimed warm-up runs come first (at least 1
// and at least 2 s), then C timed runs (default 10), one output line each:
//
//   BenchmarkAssemble/input=sdk-llm-mix-Nk/impl=sdk-callchatapi 1 NS ns/op NS ns/line MBS MB/s
//
// The SDK clones the whole message on every part, so its time per line grows
// with the stream: keep N at 20,000 or below (100,000 lines take minutes).

import { readFileSync } from 'node:fs';

import { callChatApi } from '@ai-sdk/ui-utils';

import { chunkedStream, parseArgs, printConfig } from './harness.mjs';

const CHUNK = 64 * 1024;
const WARMUP_RUNS = 1;
const WARMUP_NS = 2_000_000_000n;
const USAGE = 'usage: node call-chat-api.mjs FILE -lines N [-count C]';

// input returns the first n lines of buf without its "3:" lines.
function input(buf, n) {
  const out = [];
  let start = 0;
  for (let k = 0; k < n && start < buf.length; k++) {
    let end = buf.indexOf(0x0a, start);
    end = end < 0 ? buf.length : end + 1;
    if (!(buf[start] === 0x33 && buf[start + 1] === 0x3a)) out.push(buf.subarray(start, end));
    start = end;
  }
  return new Uint8Array(Buffer.concat(out));
}

// run assembles data with callChatApi and returns the number of updates.
async function run(data) {
  let updates = 0;
  let finished = false;
  const body = chunkedStream(data, CHUNK);
  await callChatApi({
    api: 'http://127.0.0.1/api/chat',
    body: { messages: [] },
    streamProtocol: 'data',
    fetch: async () => new Response(body, { status: 200 }),
    restoreMessagesOnFailure: () => {},
    onUpdate: () => { updates++; },
    onFinish: () => { finished = true; },
  });
  if (!finished) throw new Error('onFinish was not called');
  return updates;
}

async function main() {
  const { file, lines, count } = parseArgs(process.argv.slice(2), 'call-chat-api', USAGE, { lines: undefined, count: 10 });
  let buf;
  try {
    buf = readFileSync(file);
  } catch (err) {
    console.error(`call-chat-api: ${err.message}`);
    process.exit(1);
  }
  const data = input(buf, lines);
  const nlines = data.reduce((n, b) => n + (b === 0x0a ? 1 : 0), 0);
  const name = `input=sdk-llm-mix-${Math.round(lines / 1000)}k/impl=sdk-callchatapi`;

  printConfig('pkg: github.com/chatwire/chatwire/bench');

  let updates;
  try {
    const start = process.hrtime.bigint();
    for (let i = 0; i < WARMUP_RUNS || process.hrtime.bigint() - start < WARMUP_NS; i++) updates = await run(data);
  } catch (err) {
    console.error(`call-chat-api: ${file}: callChatApi throws: ${err.message}`);
    process.exit(1);
  }
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    const got = await run(data);
    const ns = Number(process.hrtime.bigint() - start);
    if (got !== updates) {
      console.error(`call-chat-api: run ${i + 1} made ${got} updates, the warm-up ${updates}`);
      process.exit(1);
    }
    const mbs = data.length / (ns / 1e9) / 1e6;
    console.log(`BenchmarkAssemble/${name} 1 ${ns} ns/op ${(ns / nlines).toFixed(1)} ns/line ${mbs.toFixed(2)} MB/s`);
  }
}

await main();
