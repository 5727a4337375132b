// short-streams.mjs writes bench/testdata/short/: the benchmark streams of
// short lines, token-sized deltas as a model's provider sends them, each
// written by the real AI SDK's own writers as the corpus is
// (corpus/generator): the v4 data streams by createDataStreamResponse
// (ai 4.3.19: write(formatDataStreamPart), writeData), the UI message
// stream by createUIMessageStreamResponse (ai 7.0.173, the npm alias ai-7).
//
//   cd bench/sdk && npm ci && node short-streams.mjs
//
// one-token-text-100k.stream       100,000 lines, text deltas of one token
//                                  each (values of 1-8 bytes: ASCII words,
//                                  non-ASCII, escapes), between a step's
//                                  start and its finish
// one-token-reasoning-50k.stream   50,000 lines, reasoning deltas of one
//                                  token, then a short answer
// short-agent-run.stream           an agent of many steps with token-sized
//                                  deltas: reasoning, text, streamed tool
//                                  arguments, tool calls and results, usage
// short-mixed-scripts.stream       short text deltas of mixed scripts (CJK,
//                                  Cyrillic, Greek, Arabic, Devanagari,
//                                  emoji), one to ten tokens each
// ui-one-token-text-50k.stream     the UI message stream: 50,000 text-delta
//                                  events of one token, about 50 bytes each
//                                  with their framing
//
// Randomness comes from a seeded PRNG per stream (corpus/generator/rand.mjs,
// seeded with the stream's name), so reruns are byte-identical;
// bench's TestShortStreams checks the files' shapes.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createUIMessageStream, createUIMessageStreamResponse } from 'ai-7';

import { Rand } from '../../corpus/generator/rand.mjs';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'short');

// Tokens as a BPE tokenizer cuts English prose and code, 1-8 bytes of UTF-8
// each (JSON's escapes add a byte).
const ASCII_TOKENS = [
  ' the', ' a', ' to', ' of', ' and', ' in', ' is', ' it', ' you', ' that', ' for', ' on', ' with',
  ' app', ' use', ' state', ' page', ' file', ' run', ' test', ' React', ' API', ' data', ' user',
  'ing', 'ed', 'er', 's', 'ly', 'tion', 'The', 'I', 'We', 'This', 'Here', 'Let',
  '.', ',', ':', ';', '!', '?', ' (', ')', ' -', ' =>', ' {', '}', '()', ' <', '>', '/', '_',
  ' 1', '2', '0', ' 42', '%', ' $', '#', '##', ' **', '**', '`', '```', 'ts', ' const', ' return',
];
const NON_ASCII_TOKENS = [' é', 'é', 'ü', ' naï', 've', ' 日本', '語', ' 数据', ' —', '…', ' “', '”', ' €', ' ✅', ' 🙂', '½', ' ü'];
const ESCAPED_TOKENS = ['\n', '\n\n', '"', ' "', '\\', '\t', '\n-', '\n1', '."'];

// token returns one token: mostly ASCII words and punctuation, some
// non-ASCII, some that JSON escapes (newlines, quotes, backslashes, tabs).
function token(rand) {
  const r = rand.next();
  if (r < 0.86) return rand.pick(ASCII_TOKENS);
  if (r < 0.94) return rand.pick(NON_ASCII_TOKENS);
  return rand.pick(ESCAPED_TOKENS);
}

const SCRIPT_TOKENS = [
  '日本', '語', 'の', 'です', '。', '中文', '数据', '模型', '，', '한국어', '입니다',
  ' русский', ' язык', ' это', ' ελληνικά', ' και', ' العربية', ' في', ' हिन्दी', ' है',
  ' ไทย', ' עברית', ' 😀', ' 🚀', '✅', ' 👍🏽', '👩‍💻', ' café', ' naïve', ' über', ' the', ' and', ',', '.', '\n',
];

// scriptDelta returns a delta of one to ten tokens of mixed scripts.
function scriptDelta(rand) {
  let s = '';
  for (let i = rand.int(1, 10); i > 0; i--) s += rand.pick(SCRIPT_TOKENS);
  return s;
}

// dataStream runs createDataStreamResponse (ai 4) with write and returns
// the body's bytes, checking that exactly lines parts were written.
async function dataStream(lines, write) {
  let count = 0;
  const response = createDataStreamResponse({
    execute: (w) => write((type, value) => {
      count++;
      if (type === 'data') w.writeData(value);
      else w.write(formatDataStreamPart(type, value));
    }),
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (lines !== undefined && count !== lines) throw new Error(`wrote ${count} parts, want ${lines}`);
  return body;
}

function usage(rand) {
  return { promptTokens: rand.int(100, 20000), completionTokens: rand.int(1, 4000) };
}

// textStream returns a stream of lines parts: a step's start, text deltas
// made by delta, the step's finish and the message's.
function textStream(name, lines, delta) {
  const rand = new Rand(name);
  return dataStream(lines, (put) => {
    put('start_step', { messageId: rand.id('msg-', 24) });
    for (let i = 0; i < lines - 3; i++) put('text', delta(rand));
    put('finish_step', { finishReason: 'stop', usage: usage(rand), isContinued: false });
    put('finish_message', { finishReason: 'stop', usage: usage(rand) });
  });
}

const STREAMS = {
  'one-token-text-100k': () => textStream('one-token-text-100k', 100000, token),
  'one-token-reasoning-50k': () => {
    const rand = new Rand('one-token-reasoning-50k');
    const LINES = 50000;
    const ANSWER = 200;
    return dataStream(LINES, (put) => {
      put('start_step', { messageId: rand.id('msg-', 24) });
      for (let i = 0; i < LINES - ANSWER - 4; i++) put('reasoning', token(rand));
      put('reasoning_signature', { signature: rand.id('sig_', 40) });
      for (let i = 0; i < ANSWER; i++) put('text', token(rand));
      put('finish_step', { finishReason: 'stop', usage: usage(rand), isContinued: false });
      put('finish_message', { finishReason: 'stop', usage: usage(rand) });
    });
  },
  'short-agent-run': () => {
    const rand = new Rand('short-agent-run');
    return dataStream(undefined, (put) => {
      for (let step = 0; step < 60; step++) {
        put('start_step', { messageId: rand.id('msg-', 24) });
        if (rand.chance(0.5)) for (let i = rand.int(20, 120); i > 0; i--) put('reasoning', token(rand));
        for (let i = rand.int(10, 150); i > 0; i--) put('text', token(rand));
        if (step === 59) {
          put('finish_step', { finishReason: 'stop', usage: usage(rand), isContinued: false });
          break;
        }
        const toolCallId = rand.id('call_', 24);
        const toolName = rand.pick(['writeFile', 'search', 'readFile', 'runCommand']);
        const args = toolName === 'writeFile'
          ? { path: `app/${rand.pick(['page', 'layout', 'api/route'])}.tsx`, content: Array.from({ length: rand.int(20, 80) }, () => token(rand)).join('') }
          : { query: Array.from({ length: rand.int(2, 8) }, () => token(rand)).join(''), limit: rand.int(1, 10) };
        const json = JSON.stringify(args);
        put('tool_call_streaming_start', { toolCallId, toolName });
        // Tool arguments stream as a token or two at a time.
        for (let at = 0; at < json.length;) {
          const n = rand.int(1, 8);
          put('tool_call_delta', { toolCallId, argsTextDelta: json.slice(at, at + n) });
          at += n;
        }
        put('tool_call', { toolCallId, toolName, args });
        put('tool_result', { toolCallId, result: { ok: true, bytes: rand.int(10, 9000) } });
        put('finish_step', { finishReason: 'tool-calls', usage: usage(rand), isContinued: false });
      }
      put('finish_message', { finishReason: 'stop', usage: usage(rand) });
    });
  },
  'short-mixed-scripts': () => textStream('short-mixed-scripts', 20000, scriptDelta),
  'ui-one-token-text-50k': async () => {
    const rand = new Rand('ui-one-token-text-50k');
    const EVENTS = 50000;
    const stream = createUIMessageStream({
      execute: ({ writer }) => {
        writer.write({ type: 'start', messageId: rand.id('msg-', 24) });
        writer.write({ type: 'start-step' });
        writer.write({ type: 'text-start', id: '0' });
        for (let i = 0; i < EVENTS - 6; i++) writer.write({ type: 'text-delta', id: '0', delta: token(rand) });
        writer.write({ type: 'text-end', id: '0' });
        writer.write({ type: 'finish-step' });
        writer.write({ type: 'finish', finishReason: 'stop' });
      },
    });
    return Buffer.from(await createUIMessageStreamResponse({ stream }).arrayBuffer());
  },
};

mkdirSync(OUT, { recursive: true });
for (const [name, make] of Object.entries(STREAMS)) {
  const body = await make();
  writeFileSync(join(OUT, `${name}.stream`), body);
  const lines = body.toString('utf8').split('\n').length - 1;
  console.log(`${name}.stream: ${body.length} bytes, ${lines} lines, ${(body.length / lines).toFixed(1)} bytes a line`);
}
