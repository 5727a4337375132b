// process-data-stream.mjs times the AI SDK's own processDataStream
// (@ai-sdk/ui-utils 1.2.11, the parser behind useChat in ai 4.x) over one
// stream file and prints Go benchmark lines that benchstat reads.
//
//   cd bench/sdk && npm ci
//   node process-data-stream.mjs FILE [-count N]
//
// The file is read into memory once. Each run feeds it to processDataStream
// through a ReadableStream that delivers 64 KiB chunks, with all 16 part
// callbacks counting parts. Untimed warm-up runs come first (at least 3 and
// at least 2 s, so the JIT has settled), then N timed runs (default 10), one
// output line each:
//
//   BenchmarkSDKProcessDataStream/NAME 1 NS ns/op NS ns/line MBS MB/s LINES lines
//
// NAME is the file's base name without its .stream extension; LINES is the
// number of parts processDataStream delivered. Configuration lines (goos,
// goarch, cpu, node, sdk) come first, as in `go test -bench` output.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { processDataStream } from '@ai-sdk/ui-utils';

import { chunkedStream, parseArgs, printConfig } from './harness.mjs';

const CHUNK = 64 * 1024;
const WARMUP_RUNS = 3;
const WARMUP_NS = 2_000_000_000n;
const USAGE = 'usage: node process-data-stream.mjs FILE [-count N]';

const CALLBACKS = [
  'onTextPart', 'onReasoningPart', 'onReasoningSignaturePart', 'onRedactedReasoningPart', 'onSourcePart',
  'onFilePart', 'onDataPart', 'onErrorPart', 'onToolCallStreamingStartPart', 'onToolCallDeltaPart',
  'onToolCallPart', 'onToolResultPart', 'onMessageAnnotationsPart', 'onFinishMessagePart', 'onFinishStepPart',
  'onStartStepPart',
];

// run feeds data to processDataStream in CHUNK-byte views and returns the
// number of parts delivered.
async function run(data) {
  let parts = 0;
  const callbacks = {};
  for (const name of CALLBACKS) callbacks[name] = () => { parts++; };
  const stream = chunkedStream(data, CHUNK);
  await processDataStream({ stream, ...callbacks });
  return parts;
}

async function main() {
  const { file, count } = parseArgs(process.argv.slice(2), 'process-data-stream', USAGE, { count: 10 });
  let buf;
  try {
    buf = readFileSync(file);
  } catch (err) {
    console.error(`process-data-stream: ${err.message}`);
    process.exit(1);
  }
  const data = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const name = basename(file).replace(/\.stream$/, '');

  printConfig();

  // Warm up until the JIT settles: at least WARMUP_RUNS runs and WARMUP_NS.
  let lines;
  try {
    const start = process.hrtime.bigint();
    for (let i = 0; i < WARMUP_RUNS || process.hrtime.bigint() - start < WARMUP_NS; i++) lines = await run(data);
  } catch (err) {
    console.error(`process-data-stream: ${file}: the SDK rejects the stream: ${err.message}`);
    process.exit(1);
  }
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    const parts = await run(data);
    const ns = Number(process.hrtime.bigint() - start);
    if (parts !== lines) {
      console.error(`process-data-stream: run ${i + 1} delivered ${parts} parts, the warm-up ${lines}`);
      process.exit(1);
    }
    const perLine = lines > 0 ? ns / lines : 0;
    const mbs = data.length / (ns / 1e9) / 1e6;
    console.log(`BenchmarkSDKProcessDataStream/${name} 1 ${ns} ns/op ${perLine.toFixed(1)} ns/line ${mbs.toFixed(2)} MB/s ${lines} lines`);
  }
}

await main();
