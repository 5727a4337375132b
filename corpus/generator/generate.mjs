// generate.mjs writes corpus/streams/: the stream files, their expected
// readings and MANIFEST.json, all from the real Vercel AI SDK v4.
//
//   cd corpus/generator && npm ci && node generate.mjs
//
// valid/    streams produced by the SDK's own writers (createDataStream,
//           streamText(...).toDataStream, formatDataStreamPart).
// accepted/ hand-made bytes the SDK parser accepts although its writers
//           never produce them.
// invalid/  hand-made bytes the SDK parser rejects; the bad line follows a
//           few good ones.
//
// Every expected reading (NAME.expected.jsonl) is what the SDK's
// parseDataStreamPart returned for each line, cross-checked against the
// SDK's processDataStream. Nothing in streams/ is written by hand: this
// script is the one source of truth. Randomness comes from a seeded PRNG
// (mulberry32, one seed per case derived from its name), so reruns are
// byte-identical.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import { callChatApi, parseDataStreamPart, parsePartialJson, processDataStream } from '@ai-sdk/ui-utils';
import {
  createDataStream,
  createDataStreamResponse,
  formatDataStreamPart,
  jsonSchema,
  StreamData,
  streamText,
  tool,
} from 'ai';
import { MockLanguageModelV1, simulateReadableStream } from 'ai/test';

import { Rand } from './rand.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const STREAMS = join(HERE, '..', 'streams');
const CLASSES = ['valid', 'accepted', 'invalid'];
const CROSS_CHECK_CHUNK = 7; // processDataStream is also fed in chunks of this many bytes

// counter returns an id generator prefix-1, prefix-2, ...
function counter(prefix) {
  let n = 0;
  return () => `${prefix}${++n}`;
}

// ---------------------------------------------------------------------------
// SDK writers.

const encoder = new TextEncoder();

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(encoder.encode(chunk)) : Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

// viaFormat joins formatDataStreamPart(type, value) for each [type, value].
function viaFormat(parts) {
  return Buffer.from(encoder.encode(parts.map(([type, value]) => formatDataStreamPart(type, value)).join('')));
}

// viaDataStream runs createDataStream through createDataStreamResponse (the
// same TextEncoderStream the SDK uses for HTTP) and returns the body bytes.
async function viaDataStream(execute, onError) {
  const response = createDataStreamResponse({ execute, onError });
  if (response.headers.get('x-vercel-ai-data-stream') !== 'v1') {
    throw new Error('createDataStreamResponse lost its X-Vercel-AI-Data-Stream header');
  }
  return Buffer.from(await response.arrayBuffer());
}

// mockModel is a MockLanguageModelV1 whose n-th doStream call streams steps[n].
function mockModel(steps) {
  let call = 0;
  return new MockLanguageModelV1({
    doStream: async () => {
      const chunks = steps[call++];
      if (chunks === undefined) throw new Error('mock model called more often than scripted');
      return {
        stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }),
        rawCall: { rawPrompt: null, rawSettings: {} },
      };
    },
  });
}

// runText calls streamText with a scripted mock model and deterministic ids.
function runText(steps, options = {}) {
  return streamText({
    model: mockModel(steps),
    prompt: 'corpus',
    maxSteps: steps.length,
    toolCallStreaming: true,
    tools: TOOLS,
    experimental_generateMessageId: counter('msg-'),
    _internal: { generateId: counter('gen-'), currentDate: () => new Date(0), now: () => 0 },
    onError: () => {},
    ...options,
  });
}

// viaStreamText returns the bytes of streamText(...).toDataStream(dataStreamOptions).
async function viaStreamText(steps, dataStreamOptions, textOptions) {
  return readAll(runText(steps, textOptions).toDataStream(dataStreamOptions));
}

const FULL = { sendReasoning: true, sendSources: true, sendUsage: true };

const TOOLS = {
  weather: tool({
    description: 'Current weather for a city.',
    parameters: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async ({ city }) => ({
      city,
      current: { tempC: 21.5, condition: 'partly cloudy', wind: { kph: 12, dir: 'NW' } },
      forecast: [
        { day: 'Mon', highC: 23, lowC: 14, rain: 0.1 },
        { day: 'Tue', highC: 19, lowC: 12, rain: 0.7 },
      ],
    }),
  }),
  search: tool({
    description: 'Web search.',
    parameters: jsonSchema({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
    execute: async ({ query }) => ({
      query,
      hits: [
        { title: `About ${query}`, url: 'https://example.com/a?x=1&y=2', score: 0.93, tags: ['doc', 'ref'] },
        { title: 'Second "hit"', url: 'https://example.org/b', score: 0.5, tags: [] },
      ],
      total: 2,
      next: null,
    }),
  }),
  writeFile: tool({
    description: 'Write a project file.',
    parameters: jsonSchema({
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    }),
    execute: async ({ path, content }) => ({ ok: true, path, bytes: Buffer.byteLength(content, 'utf8') }),
  }),
  failing: tool({
    description: 'Always fails.',
    parameters: jsonSchema({ type: 'object', properties: {} }),
    execute: async () => {
      throw new Error('disk quota exceeded: /var/data is full');
    },
  }),
  confirm: tool({
    description: 'Client-side tool without execute: no result is produced.',
    parameters: jsonSchema({ type: 'object', properties: { question: { type: 'string' } } }),
  }),
};

// Model stream chunk helpers (LanguageModelV1StreamPart).
const T = (textDelta) => ({ type: 'text-delta', textDelta });
const R = (textDelta) => ({ type: 'reasoning', textDelta });
const SIG = (signature) => ({ type: 'reasoning-signature', signature });
const RED = (data) => ({ type: 'redacted-reasoning', data });
const SRC = (source) => ({ type: 'source', source });
const FILE = (mimeType, data) => ({ type: 'file', mimeType, data });
const DELTA = (toolCallId, toolName, argsTextDelta) => ({
  type: 'tool-call-delta', toolCallType: 'function', toolCallId, toolName, argsTextDelta,
});
const CALL = (toolCallId, toolName, args) => ({
  type: 'tool-call', toolCallType: 'function', toolCallId, toolName, args: JSON.stringify(args),
});
const FINISH = (finishReason, promptTokens, completionTokens) => ({
  type: 'finish', finishReason, usage: { promptTokens, completionTokens },
});

// streamedCall is the model side of one streamed tool call: the args JSON
// cut into deltas of the given sizes, then the complete call.
function streamedCall(toolCallId, toolName, args, sizes = [7, 5, 11]) {
  const json = JSON.stringify(args);
  const out = [];
  let at = 0;
  for (let i = 0; at < json.length; i++) {
    const n = sizes[i % sizes.length];
    out.push(DELTA(toolCallId, toolName, json.slice(at, at + n)));
    at += n;
  }
  out.push(CALL(toolCallId, toolName, args));
  return out;
}

// ---------------------------------------------------------------------------
// Hand-made bytes.

// bytes concatenates strings (as UTF-8), byte arrays and Buffers.
function bytes(...pieces) {
  return Buffer.concat(pieces.map((p) => {
    if (typeof p === 'string') return Buffer.from(p, 'utf8');
    if (Array.isArray(p)) return Buffer.from(p);
    return Buffer.from(p);
  }));
}

// GOOD is the prefix of good lines every invalid file starts with, so that
// "parts before the error" is tested; AFTER follows the bad line and must
// never be read.
const GOOD = '2:[{"chatId":"chat-invalid-1"}]\nf:{"messageId":"msg-1"}\n0:"Hello"\n0:", world"\n';
const AFTER = '0:"never read"\ne:{"finishReason":"stop","isContinued":false}\n';
const bad = (line) => bytes(GOOD, line, '\n', AFTER);

// ---------------------------------------------------------------------------
// Text pools.

const EMOJI = ['😀', '👍🏽', '👨‍👩‍👧‍👦', '🇩🇪', '🏳️‍🌈', '❤️', '1️⃣', '🫠', '🧑🏿‍💻', '🐈‍⬛'];
const CJK = ['你好，世界。', '日本語のテキストです。', '한국어 문장입니다.', '𠀀𠀁𪚥', 'ＡＢＣ１２３', '「引用」、。'];
const COMBINING = ['e\u0301', 'a\u0308', 'n\u0303', 'Z\u0324\u0354\u0367\u0311\u0313', '\u0915\u094D\u0937', '\u1100\u1161\u11A8', 'q\u0307\u0323'];
const RTL = ['مرحبا بالعالم', 'שלום עולם', 'abc \u202Eevil\u202C def', '\u200Fרשימה\u200E 1', '١٢٣ + ٤٥٦', 'فارسی: سلام'];

const WORDS = [
  ' the', ' a', ' of', ' to', ' and', ' in', ' is', ' that', ' for', ' it', ' with', ' as', ' on', ' this',
  ' build', ' app', ' component', ' state', ' server', ' request', ' file', ' function', ' return', ' value',
  ' Next.js', ' React', ' TypeScript', ' API', ' route', ' button', ' layout', ' page', ' error', ' test',
  '.', ',', ':', ';', '!', '?', ' (', ')', ' -', '\n', '\n\n', '\n- ', '\n1. ', '`', '```ts\n', '\n```',
  ' "quoted"', " it's", ' C:\\path\\to', ' {', '}', ' =>', ' <div>', '</div>', ' &', ' 100%', ' $5',
  ' café', ' naïve', ' über', ' façade', ' 日本語', ' 中文', ' русский', ' ελληνικά', ' 😀', ' 🚀', ' ✅',
  ' —', ' “smart”', ' ‘quotes’', ' …', ' €', ' ½', '\t', ' \u00A0',
];

// delta builds an LLM-like text delta of 1..max code points.
function delta(rand, max = 40) {
  const want = rand.int(1, max);
  let out = [];
  while (out.length < want) out = out.concat(Array.from(rand.pick(WORDS)));
  return out.slice(0, want).join('');
}

// prose builds ASCII prose of exactly n characters.
function prose(rand, n) {
  const ascii = WORDS.filter((w) => /^[\x20-\x7e\n\t]+$/.test(w));
  let s = '';
  while (s.length < n) s += rand.pick(ascii);
  return s.slice(0, n);
}

function nested(depth, kind) {
  let v = kind === 'mixed' ? 'bottom' : depth;
  for (let i = depth - 1; i >= 0; i--) {
    if (kind === 'arrays') v = [v];
    else if (kind === 'objects') v = { d: v };
    else v = i % 2 === 0 ? [i, v] : { level: i, next: v };
  }
  return v;
}

// ---------------------------------------------------------------------------
// The cases.

const CASES = [];

function add(cls, name, description, producedBy, make) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`case name not kebab-case: ${name}`);
  if (CASES.some((c) => c.name === name)) throw new Error(`duplicate case name: ${name}`);
  CASES.push({ cls, name, description, producedBy, make });
}
const valid = (name, description, producedBy, make) => add('valid', name, description, producedBy, make);
const accepted = (name, description, b) => add('accepted', name, description, 'hand-made', () => b);
const invalid = (name, description, b) => add('invalid', name, description, 'hand-made', () => b);

const FMT = 'formatDataStreamPart';
const CDS = (what) => `createDataStream (${what})`;
const ST = (opts) => `streamText(MockLanguageModelV1, simulateReadableStream).toDataStream(${opts})`;

// --- valid: one code per file ------------------------------------------------

valid('code-0-text', 'Text parts (code 0): plain, with spaces, punctuation and a newline escape.', FMT, () => viaFormat([
  ['text', 'Hello'], ['text', ', '], ['text', 'world'], ['text', '!\n'], ['text', 'How can I help?'],
]));
valid('code-2-data', 'Data parts (code 2) from writeData: each value wrapped in a one-element array, every JSON type.', CDS('writer.writeData'), () => viaDataStream((w) => {
  for (const v of [{ chatId: 'chat-1' }, 'a string', 42, -3.5, true, false, null, [1, [2, [3]]], { nested: { ok: true, list: [] } }]) w.writeData(v);
}));
valid('code-3-error', 'Error parts (code 3) with the default masked message and with detailed text.', FMT, () => viaFormat([
  ['error', 'An error occurred.'], ['error', 'Rate limit exceeded: retry after 20s'], ['error', 'Tool "search" failed:\n  timeout'],
]));
valid('code-8-message-annotations', 'Message annotation parts (code 8) from writeMessageAnnotation, objects and scalars.', CDS('writer.writeMessageAnnotation'), () => viaDataStream((w) => {
  w.writeMessageAnnotation({ type: 'status', value: 'thinking' });
  w.writeMessageAnnotation({ model: 'gpt-4o', latencyMs: 231, tags: ['a', 'b'] });
  w.writeMessageAnnotation('plain string annotation');
  w.writeMessageAnnotation(7);
}));
valid('code-9-tool-call', 'Tool call parts (code 9) with object args, nested args and empty args.', FMT, () => viaFormat([
  ['tool_call', { toolCallId: 'call_1', toolName: 'weather', args: { city: 'Berlin' } }],
  ['tool_call', { toolCallId: 'call_2', toolName: 'writeFile', args: { path: 'app/page.tsx', content: 'export default function Page() {\n  return <main>Hi</main>;\n}\n' } }],
  ['tool_call', { toolCallId: 'call_3', toolName: 'noArgs', args: {} }],
]));
valid('code-a-tool-result', 'Tool result parts (code a) with object, array, string, number and null results.', FMT, () => viaFormat([
  ['tool_result', { toolCallId: 'call_1', result: { tempC: 21, condition: 'sunny' } }],
  ['tool_result', { toolCallId: 'call_2', result: [1, 2, 3] }],
  ['tool_result', { toolCallId: 'call_3', result: 'done' }],
  ['tool_result', { toolCallId: 'call_4', result: 0 }],
  ['tool_result', { toolCallId: 'call_5', result: null }],
]));
valid('code-b-tool-call-streaming-start', 'Tool call streaming start parts (code b).', FMT, () => viaFormat([
  ['tool_call_streaming_start', { toolCallId: 'call_1', toolName: 'weather' }],
  ['tool_call_streaming_start', { toolCallId: 'call_2', toolName: 'search' }],
]));
valid('code-c-tool-call-delta', 'Tool call delta parts (code c) whose argsTextDelta pieces form escaped JSON.', FMT, () => viaFormat([
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: '{"ci' }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: 'ty":"Ber' }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: 'lin \\"Mitte\\""}' }],
]));
valid('code-d-finish-message', 'Finish message parts (code d) with and without usage, for several finish reasons.', FMT, () => viaFormat([
  ['finish_message', { finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 20 } }],
  ['finish_message', { finishReason: 'length' }],
  ['finish_message', { finishReason: 'tool-calls', usage: { promptTokens: 0, completionTokens: 0 } }],
  ['finish_message', { finishReason: 'content-filter' }],
  ['finish_message', { finishReason: 'error' }],
  ['finish_message', { finishReason: 'other' }],
  ['finish_message', { finishReason: 'unknown' }],
]));
valid('code-e-finish-step', 'Finish step parts (code e) with usage and isContinued true and false.', FMT, () => viaFormat([
  ['finish_step', { finishReason: 'tool-calls', usage: { promptTokens: 12, completionTokens: 3 }, isContinued: false }],
  ['finish_step', { finishReason: 'length', usage: { promptTokens: 40, completionTokens: 100 }, isContinued: true }],
  ['finish_step', { finishReason: 'stop', isContinued: false }],
]));
valid('code-f-start-step', 'Start step parts (code f).', FMT, () => viaFormat([
  ['start_step', { messageId: 'msg-abc123' }], ['start_step', { messageId: 'msg-def456' }],
]));
valid('code-g-reasoning', 'Reasoning parts (code g).', FMT, () => viaFormat([
  ['reasoning', 'The user wants a todo app. '], ['reasoning', 'I should use React state.\n'], ['reasoning', 'Plan: 1) scaffold 2) style'],
]));
valid('code-h-source', 'Source parts (code h) from writeSource, with and without title and providerMetadata.', CDS('writer.writeSource'), () => viaDataStream((w) => {
  w.writeSource({ sourceType: 'url', id: 'src-1', url: 'https://example.com/docs?a=1&b=2', title: 'Docs' });
  w.writeSource({ sourceType: 'url', id: 'src-2', url: 'https://example.org/' });
  w.writeSource({ sourceType: 'url', id: 'src-3', url: 'https://example.net/x', title: 'X', providerMetadata: { perplexity: { rank: 1 } } });
}));
valid('code-i-redacted-reasoning', 'Redacted reasoning parts (code i).', FMT, () => viaFormat([
  ['redacted_reasoning', { data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw' }], ['redacted_reasoning', { data: '' }],
]));
valid('code-j-reasoning-signature', 'Reasoning signature parts (code j).', FMT, () => viaFormat([
  ['reasoning', 'Thinking.'], ['reasoning_signature', { signature: 'ErUBCkYIBxgCIkB+sig/=' }],
]));
valid('code-k-file', 'File parts (code k) with base64 data, mimeType first as streamText writes it.', FMT, () => viaFormat([
  ['file', { mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' }],
  ['file', { mimeType: 'text/plain', data: 'aGVsbG8gd29ybGQK' }],
  ['file', { mimeType: 'application/octet-stream', data: '' }],
]));

// --- valid: mixed and realistic ---------------------------------------------

valid('all-codes-mixed', 'All 16 codes interleaved in one createDataStream, written with every writer method.', CDS('write(formatDataStreamPart), writeData, writeMessageAnnotation, writeSource'), () => viaDataStream((w) => {
  w.writeData({ chatId: 'chat-mixed' });
  w.write(formatDataStreamPart('start_step', { messageId: 'msg-1' }));
  w.write(formatDataStreamPart('reasoning', 'Let me check.'));
  w.write(formatDataStreamPart('reasoning_signature', { signature: 'sig-1' }));
  w.write(formatDataStreamPart('redacted_reasoning', { data: 'cmVkYWN0ZWQ=' }));
  w.writeMessageAnnotation({ step: 1 });
  w.write(formatDataStreamPart('text', 'Looking it up'));
  w.write(formatDataStreamPart('tool_call_streaming_start', { toolCallId: 'call_1', toolName: 'search' }));
  w.write(formatDataStreamPart('tool_call_delta', { toolCallId: 'call_1', argsTextDelta: '{"query":"go"}' }));
  w.write(formatDataStreamPart('tool_call', { toolCallId: 'call_1', toolName: 'search', args: { query: 'go' } }));
  w.write(formatDataStreamPart('tool_result', { toolCallId: 'call_1', result: { hits: 3 } }));
  w.writeSource({ sourceType: 'url', id: 'src-1', url: 'https://go.dev/', title: 'Go' });
  w.write(formatDataStreamPart('file', { mimeType: 'text/plain', data: 'Z28=' }));
  w.write(formatDataStreamPart('error', 'partial failure'));
  w.write(formatDataStreamPart('finish_step', { finishReason: 'stop', usage: { promptTokens: 5, completionTokens: 6 }, isContinued: false }));
  w.writeData({ progress: 1 });
  w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage: { promptTokens: 5, completionTokens: 6 } }));
}));

valid('all-codes-stream-text-in-data-stream', 'A streamText run merged into createDataStream next to writeData and writeMessageAnnotation, producing all 16 codes through the real pipeline.', `${CDS('writeData, writeMessageAnnotation, mergeIntoDataStream, onError: e => e.message')} + ${ST('via mergeIntoDataStream, sendReasoning, sendSources')}`, () => viaDataStream((w) => {
  w.writeData({ chatId: 'chat-all-codes' });
  w.writeMessageAnnotation({ phase: 'start' });
  const result = runText([
    [R('Need the weather. '), SIG('sig-weather'), RED('cmVkYWN0ZWQ='), T('Let me check. '),
      ...streamedCall('call_w1', 'weather', { city: 'Paris' }), FINISH('tool-calls', 31, 9)],
    [SRC({ sourceType: 'url', id: 'src-1', url: 'https://weather.example/paris', title: 'Paris weather' }),
      FILE('image/svg+xml', Buffer.from('<svg/>').toString('base64')), T('It is 21.5 °C in Paris.'),
      { type: 'error', error: new Error('upstream hiccup') }, FINISH('stop', 60, 12)],
  ]);
  result.mergeIntoDataStream(w, { sendReasoning: true, sendSources: true });
}, (error) => `upstream error: ${error.message}`));

valid('agent-run-reasoning-tool-call-two-steps', 'A two-step agent run: reasoning with signature, text, a streamed tool call (b, c..., 9), its result (a), then a final text step and the finish message.', ST('{sendReasoning:true, sendSources:true, sendUsage:true}'), () => viaStreamText([
  [R('The user asks about Berlin weather. '), R('I will call the weather tool.'), SIG('EqQBCkgIARABGAIiQL'),
    T('Let me look '), T('that up.'), ...streamedCall('call_berlin', 'weather', { city: 'Berlin' }), FINISH('tool-calls', 120, 25)],
  [T('It is '), T('21.5 °C'), T(' and partly cloudy in Berlin.'), T('\n\nTomorrow: 19 °C with rain.'), FINISH('stop', 260, 18)],
], FULL));

valid('agent-run-without-usage', 'The same kind of tool-calling run written with sendUsage:false, so e and d parts carry no usage key.', ST('{sendReasoning:true, sendUsage:false}'), () => viaStreamText([
  [R('Search first.'), ...streamedCall('call_s1', 'search', { query: 'vercel ai sdk data stream' }), FINISH('tool-calls', 50, 10)],
  [T('The data stream protocol uses '), T('`code:JSON` lines.'), FINISH('stop', 90, 12)],
], { sendReasoning: true, sendUsage: false }));

valid('agent-run-parallel-tool-calls', 'One step with two tool calls whose argument deltas interleave, then both results and a final answer.', ST('{sendReasoning:true, sendSources:true}'), () => {
  const a = streamedCall('call_a', 'weather', { city: 'Tokyo 東京' }, [4]);
  const b = streamedCall('call_b', 'weather', { city: 'São Paulo' }, [6]);
  const interleaved = [];
  const da = a.slice(0, -1);
  const db = b.slice(0, -1);
  for (let i = 0; i < Math.max(da.length, db.length); i++) {
    if (i < da.length) interleaved.push(da[i]);
    if (i < db.length) interleaved.push(db[i]);
  }
  return viaStreamText([
    [T('Checking both cities.'), ...interleaved, a.at(-1), b.at(-1), FINISH('tool-calls', 80, 40)],
    [T('Tokyo: 21.5 °C. '), T('São Paulo: 21.5 °C.'), FINISH('stop', 200, 15)],
  ], FULL);
});

valid('agent-run-three-steps-sources-file', 'A three-step build agent: search with sources, a writeFile tool call with code in its args, a generated file part, and a closing summary.', ST('{sendReasoning:true, sendSources:true, sendUsage:true}'), () => viaStreamText([
  [R('Plan: search docs, then write the page.'), SIG('sig-plan'), ...streamedCall('call_1', 'search', { query: 'next.js app router page' }), FINISH('tool-calls', 300, 30)],
  [SRC({ sourceType: 'url', id: 'src-a', url: 'https://nextjs.org/docs/app', title: 'App Router' }),
    SRC({ sourceType: 'url', id: 'src-b', url: 'https://react.dev/learn', title: 'React “Learn”', providerMetadata: { search: { rank: 2 } } }),
    T('Writing `app/page.tsx`.'),
    ...streamedCall('call_2', 'writeFile', { path: 'app/page.tsx', content: 'export default function Page() {\n  return <h1 className="title">Hello "world" & co</h1>;\n}\n' }, [16, 9]),
    FINISH('tool-calls', 700, 120)],
  [RED('ZW5jcnlwdGVkIHJlYXNvbmluZw=='), FILE('image/png', 'iVBORw0KGgo='), T('Done. '), T('I created the page and a preview image.'), FINISH('stop', 900, 20)],
], FULL));

valid('agent-run-continue-steps', 'experimental_continueSteps after a length-limited step: the first e part has isContinued true.', ST('{sendUsage:true}'), () => viaStreamText([
  [T('This answer is long '), T('and gets cut off at the token '), T('limit'), FINISH('length', 10, 100)],
  [T(' so the model continues '), T('in a second step.'), FINISH('stop', 110, 20)],
], { sendUsage: true }, { experimental_continueSteps: true }));

valid('agent-run-client-tool-without-result', 'A tool without execute (a client-side tool): the run ends after the 9 part with no a part.', ST('{}'), () => viaStreamText([
  [T('I need your confirmation.'), ...streamedCall('call_c', 'confirm', { question: 'Delete 3 files?' }), FINISH('tool-calls', 20, 8)],
], {}));

valid('agent-run-tool-error-masked', 'A tool whose execute throws: toDataStream masks it as 3:"An error occurred." by default.', ST('{} (default getErrorMessage)'), () => viaStreamText([
  [T('Trying.'), ...streamedCall('call_f', 'failing', {}), FINISH('tool-calls', 5, 5)],
], {}));

valid('agent-run-model-error-custom-message', 'A model stream error forwarded with a custom getErrorMessage that keeps the detail.', ST('{getErrorMessage: e => e.message}'), () => viaStreamText([
  [T('Partial answer'), { type: 'error', error: new Error('Overloaded: "model busy", try again\n(code 529)') }, FINISH('error', 10, 2)],
], { getErrorMessage: (e) => e.message }));

valid('agent-run-reasoning-not-sent', 'A run with reasoning and sources written with default options, so no g, i, j or h parts appear.', ST('{} (sendReasoning and sendSources default to false)'), () => viaStreamText([
  [R('hidden reasoning'), SIG('hidden-sig'), RED('aGlkZGVu'), SRC({ sourceType: 'url', id: 's', url: 'https://hidden.example/' }), T('Visible answer.'), FINISH('stop', 3, 4)],
], {}));

valid('agent-run-stream-data-legacy', 'The deprecated StreamData helper merged into toDataStream({data}): data and annotation parts beside the text.', ST('{data: StreamData}'), async () => {
  const data = new StreamData();
  data.append({ chatId: 'chat-legacy' });
  data.appendMessageAnnotation({ source: 'StreamData' });
  const result = runText([[T('Legacy '), T('stream.'), FINISH('stop', 1, 2)]], {
    onFinish: () => { data.append({ done: true }); data.close(); },
  });
  return readAll(result.toDataStream({ data }));
});

valid('agent-run-service-stream', 'A service-like response: first line 2:[{"chatId":...}], a three-step agent run with tool calls, annotations between steps, and data after the finish.', CDS('writeData, writeMessageAnnotation, mergeIntoDataStream') + ' + ' + ST('via mergeIntoDataStream, sendReasoning, sendSources'), () => viaDataStream(async (w) => {
  w.writeData({ chatId: 'chat_7f3a9c2e' });
  w.writeMessageAnnotation({ type: 'model', model: 'v0-1.5-md' });
  const result = runText([
    [R('I will scaffold a todo app.'), SIG('sig-todo'), T('Creating the project.'), ...streamedCall('call_1', 'writeFile', { path: 'package.json', content: '{\n  "name": "todo"\n}\n' }), FINISH('tool-calls', 100, 50)],
    [...streamedCall('call_2', 'writeFile', { path: 'app/page.tsx', content: "'use client';\nimport { useState } from 'react';\n" }), FINISH('tool-calls', 200, 60)],
    [T('Your app is ready.\n'), T('- Add todos\n- Toggle them ✅'), FINISH('stop', 300, 20)],
  ]);
  result.mergeIntoDataStream(w, { sendReasoning: true, sendSources: true });
  await result.consumeStream();
  w.writeData({ url: 'https://example.com/chat/chat_7f3a9c2e', status: 'complete' });
}));

// --- valid: errors -------------------------------------------------------------

valid('error-masked-execute-throws', 'createDataStream whose execute throws synchronously after writing: the error is masked as 3:"An error occurred.".', CDS('execute throws, default onError'), () => viaDataStream((w) => {
  w.writeData({ chatId: 'chat-err-1' });
  w.write(formatDataStreamPart('text', 'Starting'));
  throw new Error('secret internal detail');
}));
valid('error-masked-execute-rejects', 'createDataStream whose async execute rejects: masked 3: part after the earlier parts.', CDS('async execute rejects, default onError'), () => viaDataStream(async (w) => {
  w.writeData({ chatId: 'chat-err-2' });
  w.write(formatDataStreamPart('text', 'Half an answer'));
  await Promise.resolve();
  throw new Error('db connection lost');
}));
valid('error-masked-merged-stream-fails', 'A merged stream that errors mid-way becomes a masked 3: part; the other parts still arrive.', CDS('writer.merge of a failing stream, default onError'), () => viaDataStream((w) => {
  w.writeData({ chatId: 'chat-err-3' });
  let sent = 0;
  w.merge(new ReadableStream({
    pull(c) {
      if (sent++ < 2) c.enqueue(formatDataStreamPart('text', `chunk ${sent}`));
      else c.error(new Error('merged stream broke'));
    },
  }));
}));
valid('error-custom-on-error', 'createDataStream with a custom onError that forwards the error message.', CDS('custom onError'), () => viaDataStream((w) => {
  w.writeData({ chatId: 'chat-err-4' });
  throw new Error('Quota exceeded for team "acme"');
}, (error) => `Error: ${error.message}`));
valid('error-custom-on-error-unicode-multiline', 'A custom onError message with quotes, backslashes, newlines, tabs and non-ASCII.', CDS('custom onError'), () => viaDataStream(async () => {
  throw new Error('fehlgeschlagen: „Datei“ C:\\tmp\\x.txt\n\tline 2 — 失败 😞');
}, (error) => error.message));

// --- valid: unicode ------------------------------------------------------------

valid('unicode-emoji', 'Emoji of every shape: skin tones, ZWJ families, flags, variation selectors, keycaps; raw UTF-8 on the wire.', ST('{}'), () => viaStreamText([
  [...EMOJI.map((e) => T(`${e} `)), FINISH('stop', 1, 1)],
], {}));
valid('unicode-cjk', 'Chinese, Japanese, Korean, astral CJK extension B and fullwidth forms.', FMT, () => viaFormat(CJK.map((s) => ['text', s])));
valid('unicode-combining-marks', 'Combining marks and conjuncts: decomposed accents, zalgo stacks, Devanagari, Hangul jamo.', FMT, () => viaFormat(COMBINING.map((s) => ['text', s])));
valid('unicode-line-separators', 'U+2028, U+2029 and U+0085 inside values; JSON.stringify writes them raw, so they must not split lines.', FMT, () => viaFormat([
  ['text', 'line\u2028separator'], ['text', 'para\u2029graph'], ['text', 'next\u0085line'], ['data', [{ s: '\u2028\u2029' }]], ['reasoning', '\u2028'],
]));
valid('unicode-rtl', 'Right-to-left scripts, bidi controls (RLO, PDF, RLM, LRM) and Arabic-Indic digits.', FMT, () => viaFormat(RTL.map((s) => ['text', s])));
valid('unicode-surrogate-pair-split-across-text-parts', 'A model splits one emoji between two text deltas: JSON.stringify writes the lone halves as \\ud83d and \\ude00 escapes.', ST('{}'), () => viaStreamText([
  [T('smile \uD83D'), T('\uDE00 done'), T('\uD83E'), T('\uDD16'), FINISH('stop', 1, 4)],
], {}));
valid('unicode-lone-surrogates', 'Lone high and low surrogates and a reversed pair in text, reasoning and data values, escaped by JSON.stringify.', FMT, () => viaFormat([
  ['text', '\uD800'], ['text', '\uDFFF'], ['text', 'x\uDE00\uD83Dy'], ['reasoning', '\uDBFF'], ['data', [{ half: '\uD83D' }]],
]));
valid('unicode-specials', 'Noncharacters and invisible characters inside values: U+FEFF, U+FFFD, U+FFFE, U+FFFF, U+200B, U+2060, NBSP, DEL, U+10FFFF.', FMT, () => viaFormat([
  ['text', '\uFEFFbom inside'], ['text', '\uFFFD'], ['text', '\uFFFE\uFFFF'], ['text', 'zero\u200Bwidth\u2060joiner'],
  ['text', 'nb\u00A0sp'], ['text', 'del\u007F'], ['text', '\u{10FFFF}'], ['text', '\u{1D49C}\u{1D4B7}'],
]));
valid('unicode-in-keys-and-names', 'Non-ASCII object keys, tool names and tool call ids.', FMT, () => viaFormat([
  ['data', [{ 'schlüssel': 'wert', '键': '值', '🔑': '🚪', 'ключ': { 'вложенный': true } }]],
  ['tool_call_streaming_start', { toolCallId: 'call_ü', toolName: 'wetter_abfragen' }],
  ['tool_call', { toolCallId: 'call_ü', toolName: 'wetter_abfragen', args: { 'stadt': 'Köln' } }],
  ['tool_result', { toolCallId: 'call_ü', result: { 'temperatur': '21 °C' } }],
]));
valid('unicode-mixed-agent-run', 'An agent run whose text, reasoning and tool args mix every script above.', ST('{sendReasoning:true}'), () => viaStreamText([
  [R('思考中… '), R('مرحبا'), ...streamedCall('call_u', 'search', { query: `${CJK[0]} ${RTL[0]} ${EMOJI[2]}` }, [3, 5]), FINISH('tool-calls', 9, 9)],
  [T(COMBINING.join(' ')), T(` ${EMOJI.join('')}`), T(' line\u2028sep'), FINISH('stop', 9, 9)],
], { sendReasoning: true }));

// --- valid: escapes, empties, numbers --------------------------------------------

valid('json-escapes-stringify', 'Every escape JSON.stringify writes: \\" \\\\ \\b \\f \\n \\r \\t and \\u0000-\\u001f, in text, keys and nested values.', FMT, () => {
  const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');
  return viaFormat([
    ['text', 'quote " backslash \\ slash / tab \t cr \r lf \n bs \b ff \f'],
    ['text', controls],
    ...Array.from({ length: 32 }, (_, i) => ['text', `[${String.fromCharCode(i)}]`]),
    ['text', '\\n is not a newline; \\u0041 is not A'],
    ['data', [{ 'k"e\\y\n': 'v\t"', arr: ['\u0000', '\u001f', '\u007f'] }]],
    ['text', '</script><!-- & --> \'single\''],
  ]);
});
valid('text-multiline-code-block', 'Markdown with a fenced code block spread over text deltas with escaped newlines, quotes and backslashes.', ST('{}'), () => viaStreamText([
  [T('Here is the code:\n\n```ts\n'), T('const re = /\\d+\\.\\d+/g;\n'), T('console.log("a\\tb", `x${1}`);\n'), T('```\n'), T('\r\nWindows line\r\n'), FINISH('stop', 1, 5)],
], {}));
valid('empty-strings', 'Empty strings wherever a string goes: text, error, reasoning, ids, tool names, deltas, data, signature, file data.', FMT, () => viaFormat([
  ['text', ''], ['error', ''], ['reasoning', ''], ['start_step', { messageId: '' }],
  ['tool_call_streaming_start', { toolCallId: '', toolName: '' }], ['tool_call_delta', { toolCallId: '', argsTextDelta: '' }],
  ['tool_call', { toolCallId: '', toolName: '', args: {} }], ['tool_result', { toolCallId: '', result: '' }],
  ['data', ['']], ['message_annotations', ['']], ['redacted_reasoning', { data: '' }], ['reasoning_signature', { signature: '' }],
  ['file', { mimeType: '', data: '' }], ['finish_step', { finishReason: '', isContinued: false }], ['finish_message', { finishReason: '' }],
]));
valid('empty-arrays-and-objects', 'Empty containers: 2:[], 8:[], [{}], args {}, results {} and [].', FMT, () => viaFormat([
  ['data', []], ['message_annotations', []], ['data', [{}]], ['data', [[]]], ['message_annotations', [{}, []]],
  ['tool_call', { toolCallId: 'c1', toolName: 't', args: {} }], ['tool_result', { toolCallId: 'c1', result: {} }],
  ['tool_result', { toolCallId: 'c2', result: [] }],
]));
valid('numbers-stringify-forms', 'Numbers as JSON.stringify writes them: 1e+21, 5e-324, max double, -0 as 0, fractions, negative and large integers.', FMT, () => viaFormat([
  ['data', [0, -0, 1, -1, 0.1 + 0.2, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 123456789012345680000, 1.5e300]],
  ['finish_message', { finishReason: 'stop', usage: { promptTokens: 9007199254740991, completionTokens: 0 } }],
]));
valid('text-1mib-single-line', 'One text part whose value is 1 MiB (1,048,576 characters) on a single line.', FMT, () => viaFormat([
  ['text', 'start'], ['text', prose(new Rand('text-1mib-single-line'), 1 << 20)], ['text', 'end'],
]));
valid('data-large-array', 'A data part holding a 20,000-element array of small objects on one line.', CDS('writer.writeData'), () => viaDataStream((w) => {
  const rand = new Rand('data-large-array');
  w.writeData({ rows: Array.from({ length: 20000 }, (_, i) => ({ i, v: rand.int(0, 1e6), ok: rand.chance(0.5) })) });
}));
valid('deep-nesting-500-arrays', 'A data part nested 500 arrays deep.', CDS('writer.write(formatDataStreamPart)'), () => viaDataStream((w) => { w.write(formatDataStreamPart('data', nested(500, 'arrays'))); }));
valid('deep-nesting-500-objects', 'A data part holding objects nested 500 deep.', CDS('writer.writeData'), () => viaDataStream((w) => { w.writeData(nested(499, 'objects')); }));
valid('deep-nesting-500-mixed-tool-args', 'Tool call args and a tool result nested 500 deep, alternating arrays and objects.', FMT, () => viaFormat([
  ['tool_call', { toolCallId: 'c1', toolName: 'deep', args: { tree: nested(498, 'mixed') } }],
  ['tool_result', { toolCallId: 'c1', result: nested(499, 'mixed') }],
]));

// --- valid: the first line -------------------------------------------------------

const firstLine = (name, description, chatData) => valid(name, description, CDS('writer.writeData'), () => viaDataStream((w) => {
  w.writeData(chatData);
  w.write(formatDataStreamPart('start_step', { messageId: 'msg-1' }));
  w.write(formatDataStreamPart('text', 'Hi!'));
  w.write(formatDataStreamPart('finish_step', { finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 }, isContinued: false }));
  w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } }));
}));
firstLine('first-line-chat-id-plain', 'The spec first line 2:[{"chatId":"..."}] with a plain id, then a short answer.', { chatId: 'chat_9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d' });
firstLine('first-line-chat-id-escaped-quote', 'A chatId containing a quote and a backslash, escaped as \\" and \\\\.', { chatId: 'chat"with\\quote' });
firstLine('first-line-chat-id-slash-and-non-ascii', 'A chatId with slashes and non-ASCII letters, written raw by JSON.stringify.', { chatId: 'team/acme/chät-é-日本-😀' });
firstLine('first-line-chat-id-extra-fields', 'The chatId object carries extra fields after chatId.', { chatId: 'chat-extra', streamId: 'stream-1', assistantMessageId: 'msg-a', model: 'v0-1.5-md', url: 'https://example.com/chat/chat-extra' });
firstLine('first-line-chat-id-not-first-key', 'chatId is not the first key of the object.', { streamId: 'stream-2', chatId: 'chat-second-key' });
firstLine('first-line-chat-id-with-colon-and-brace', 'A chatId containing colons, braces and a comma.', { chatId: 'chat:1:{x},y' });
firstLine('first-line-chat-id-control-chars', 'A chatId with a newline and a control character, escaped as \\n and \\u0001.', { chatId: 'chat\nline\u0001' });
firstLine('first-line-chat-id-empty', 'An empty chatId string.', { chatId: '' });
firstLine('first-line-chat-id-nested-object-first', 'A nested object precedes chatId, and its key also reads "chatId".', { meta: { chatId: 'inner-not-this' }, chatId: 'chat-outer' });
valid('first-line-chat-id-array-with-more-elements', 'The first data part holds the chatId object followed by more elements.', CDS('writer.write(formatDataStreamPart)'), () => viaDataStream((w) => {
  w.write(formatDataStreamPart('data', [{ chatId: 'chat-many' }, { other: 1 }, 'x']));
  w.write(formatDataStreamPart('text', 'ok'));
}));

// --- valid: the 100,000-line LLM mix -------------------------------------------

valid('llm-mix-100k-lines', 'Exactly 100,000 lines of an LLM-like mix: ~80% short text deltas plus data, annotations, reasoning, streamed tool calls, results and step/finish parts.', CDS('write(formatDataStreamPart), writeData, writeMessageAnnotation'), () => viaDataStream((w) => {
  const LINES = 100000;
  const rand = new Rand('llm-mix-100k-lines');
  let count = 0;
  const put = (type, value) => {
    count++;
    if (type === 'data') w.writeData(value);
    else if (type === 'message_annotations') w.writeMessageAnnotation(value);
    else w.write(formatDataStreamPart(type, value));
  };
  const usage = () => ({ promptTokens: rand.int(10, 20000), completionTokens: rand.int(1, 4000) });
  const chatId = rand.id('chat_', 24);
  put('data', { chatId });
  let message = 0;
  const MAX_STEP = 500; // upper bound on lines one step writes
  while (count + MAX_STEP + 10 < LINES) {
    message++;
    const steps = rand.int(1, 4);
    put('message_annotations', { messageIndex: message, model: rand.pick(['v0-1.5-md', 'v0-1.5-lg', 'v0-1.0-md']) });
    for (let s = 0; s < steps; s++) {
      put('start_step', { messageId: rand.id('msg-') });
      if (rand.chance(0.4)) {
        for (let i = rand.int(2, 25); i > 0; i--) put('reasoning', delta(rand, 30));
        if (rand.chance(0.5)) put('reasoning_signature', { signature: rand.id('sig_', 40) });
        if (rand.chance(0.1)) put('redacted_reasoning', { data: Buffer.from(rand.id('', 30)).toString('base64') });
      }
      for (let i = rand.int(10, 110); i > 0; i--) {
        put('text', delta(rand));
        if (rand.chance(0.01)) put('data', { progress: rand.int(0, 100), note: delta(rand, 12) });
        if (rand.chance(0.005)) put('message_annotations', { type: 'citation', index: rand.int(1, 9), quote: delta(rand, 20) });
      }
      const lastStep = s === steps - 1;
      if (!lastStep) {
        const calls = rand.chance(0.2) ? 2 : 1;
        for (let c = 0; c < calls; c++) {
          const toolCallId = rand.id('call_', 24);
          const toolName = rand.pick(['writeFile', 'search', 'weather', 'runCommand']);
          const args = toolName === 'writeFile'
            ? { path: `app/${rand.pick(['page', 'layout', 'api/route', 'components/button'])}.tsx`, content: Array.from({ length: rand.int(1, 6) }, () => delta(rand)).join('') }
            : { query: delta(rand, 30), limit: rand.int(1, 10), options: { safe: rand.chance(0.5), lang: rand.pick(['en', 'de', 'ja']) } };
          const json = JSON.stringify(args);
          put('tool_call_streaming_start', { toolCallId, toolName });
          for (let at = 0; at < json.length;) {
            const n = rand.int(1, 24);
            put('tool_call_delta', { toolCallId, argsTextDelta: json.slice(at, at + n) });
            at += n;
          }
          put('tool_call', { toolCallId, toolName, args });
          put('tool_result', {
            toolCallId,
            result: rand.chance(0.1) ? null : {
              ok: !rand.chance(0.1),
              data: { items: Array.from({ length: rand.int(0, 3) }, (_, i) => ({ id: i, title: delta(rand, 20), meta: { score: rand.next(), tags: [delta(rand, 5)] } })) },
              elapsedMs: rand.int(1, 5000),
            },
          });
        }
        if (rand.chance(0.05)) put('error', rand.pick(['An error occurred.', 'Tool timed out after 30s']));
        put('finish_step', { finishReason: 'tool-calls', usage: usage(), isContinued: false });
      } else {
        if (rand.chance(0.05)) put('source', { sourceType: 'url', id: rand.id('src_', 8), url: `https://example.com/${rand.id('', 8)}`, title: delta(rand, 20) });
        put('finish_step', { finishReason: rand.chance(0.95) ? 'stop' : 'length', usage: usage(), isContinued: false });
      }
    }
    put('finish_message', { finishReason: 'stop', usage: usage() });
  }
  // Fill to exactly LINES with one last message of text deltas.
  put('start_step', { messageId: rand.id('msg-') });
  while (count < LINES - 2) put('text', delta(rand));
  put('finish_step', { finishReason: 'stop', usage: usage(), isContinued: false });
  put('finish_message', { finishReason: 'stop', usage: usage() });
  if (count !== LINES) throw new Error(`llm-mix wrote ${count} lines, want ${LINES}`);
}));

// --- valid: what the message assembly must get right -------------------------
// Streams for the assembled message (NAME.assembly.jsonl): how callChatApi
// folds parts into useChat's message, including where it throws.

valid('assembly-interleaved-tool-calls', 'Two streamed tool calls whose starts, deltas, calls and results interleave, results in the reverse order.', FMT, () => viaFormat([
  ['start_step', { messageId: 'msg-il' }],
  ['tool_call_streaming_start', { toolCallId: 'call_1', toolName: 'search' }],
  ['tool_call_streaming_start', { toolCallId: 'call_2', toolName: 'writeFile' }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: '{"que' }],
  ['tool_call_delta', { toolCallId: 'call_2', argsTextDelta: '{"path":"a.ts","content":"line 1\\n' }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: 'ry":"next' }],
  ['tool_call_delta', { toolCallId: 'call_2', argsTextDelta: 'line \\"2\\" \\u00e9' }],
  ['text', 'Working on both.'],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: '.js", "limit": 1' }],
  ['tool_call_delta', { toolCallId: 'call_2', argsTextDelta: ' 😀", "mode": tr' }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: '0, "tags": [1, 2.5, -' }],
  ['tool_call_delta', { toolCallId: 'call_2', argsTextDelta: 'ue}' }],
  ['tool_call', { toolCallId: 'call_2', toolName: 'writeFile', args: { path: 'a.ts', content: 'line 1\nline "2" é 😀', mode: true } }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: '3e1], "x": nul' }],
  ['tool_call_delta', { toolCallId: 'call_1', argsTextDelta: 'l}' }],
  ['tool_call', { toolCallId: 'call_1', toolName: 'search', args: { query: 'next.js', limit: 10, tags: [1, 2.5, -30], x: null } }],
  ['tool_result', { toolCallId: 'call_2', result: { ok: true, bytes: 23 } }],
  ['tool_result', { toolCallId: 'call_1', result: { hits: [] } }],
  ['finish_step', { finishReason: 'tool-calls', usage: { promptTokens: 10, completionTokens: 20 }, isContinued: false }],
  ['start_step', { messageId: 'msg-il' }],
  ['text', 'Both done.'],
  ['finish_step', { finishReason: 'stop', usage: { promptTokens: 30, completionTokens: 5 }, isContinued: false }],
  ['finish_message', { finishReason: 'stop', usage: { promptTokens: 40, completionTokens: 25 } }],
]));
valid('assembly-partial-args-repair', 'One tool call whose args arrive a few characters at a time through every state of fixJson: strings with escapes, numbers, literals, nesting, a BOM-free unicode key.', FMT, () => {
  const args = '{"a":"x\\"y\\\\z\\u00e9","n":-12.5e-3,"t":true,"f":false,"z":null,"arr":[[],{},[1,[2,{"k":"v"}]]],"ü":"😀","e":1E+2}';
  const parts = [['tool_call_streaming_start', { toolCallId: 'c', toolName: 'tool' }]];
  for (let at = 0; at < args.length; at += 3) parts.push(['tool_call_delta', { toolCallId: 'c', argsTextDelta: args.slice(at, at + 3) }]);
  parts.push(['tool_call', { toolCallId: 'c', toolName: 'tool', args: JSON.parse(args) }]);
  return viaFormat(parts);
});
valid('assembly-partial-args-never-parse', 'Args deltas that fixJson cannot repair (garbage, a forbidden __proto__ key, a constructor.prototype), so args stays undefined until they parse.', FMT, () => viaFormat([
  ['tool_call_streaming_start', { toolCallId: 'g', toolName: 'garbage' }],
  ['tool_call_delta', { toolCallId: 'g', argsTextDelta: 'not json' }],
  ['tool_call_delta', { toolCallId: 'g', argsTextDelta: ' {"a":1}' }],
  ['tool_call_streaming_start', { toolCallId: 'p', toolName: 'proto' }],
  ['tool_call_delta', { toolCallId: 'p', argsTextDelta: '{"x":{"__proto__":' }],
  ['tool_call_delta', { toolCallId: 'p', argsTextDelta: '{"polluted":true}}}' }],
  ['tool_call_streaming_start', { toolCallId: 'k', toolName: 'ctor' }],
  ['tool_call_delta', { toolCallId: 'k', argsTextDelta: '{"constructor":{"prototype":{}}}' }],
  ['tool_call_streaming_start', { toolCallId: 'n', toolName: 'ctor-null' }],
  ['tool_call_delta', { toolCallId: 'n', argsTextDelta: '{"constructor":null}' }],
  ['tool_call_streaming_start', { toolCallId: 's', toolName: 'ctor-string' }],
  ['tool_call_delta', { toolCallId: 's', argsTextDelta: '{"constructor":"ok","b":[' }],
  ['tool_call_delta', { toolCallId: 's', argsTextDelta: '-' }],
  ['tool_call_delta', { toolCallId: 's', argsTextDelta: '1' }],
]));
valid('assembly-tool-call-object-order', 'Tool call and result values with extra keys, integer-like keys, a "state" and a "step" key: the SDK spreads them into the invocation in JavaScript property order.', FMT, () => viaFormat([
  ['tool_call', { toolCallId: 'c1', toolName: 't', args: { b: 1, 2: 'two', a: 0, 1: 'one' }, 10: 'ten', extra: { z: 1, 0: 0 }, step: 'custom' }],
  ['tool_result', { toolCallId: 'c1', result: { 1.5: 'x', 7: 'seven' }, state: 'overridden', more: [1.0, 1e2] }],
  ['tool_call', { toolCallId: 'c2', toolName: 't', args: [] }],
  ['tool_call', { toolCallId: 'c3', toolName: 't', args: null }],
  ['tool_result', { toolCallId: 'c3', result: null }],
]));
valid('assembly-tool-call-repeated', 'The same toolCallId started twice, then called, resulted and streamed again: the SDK keeps both invocations but one part.', FMT, () => viaFormat([
  ['tool_call_streaming_start', { toolCallId: 'dup', toolName: 'first' }],
  ['tool_call_delta', { toolCallId: 'dup', argsTextDelta: '{"v":1' }],
  ['tool_call_streaming_start', { toolCallId: 'dup', toolName: 'second' }],
  ['tool_call_delta', { toolCallId: 'dup', argsTextDelta: '{"v":2' }],
  ['tool_result', { toolCallId: 'dup', result: 'first result' }],
  ['tool_call', { toolCallId: 'dup', toolName: 'second', args: { v: 2 } }],
  ['tool_result', { toolCallId: 'dup', result: 'again' }],
  ['tool_call_delta', { toolCallId: 'dup', argsTextDelta: '}' }],
]));
valid('assembly-tool-result-unknown-call', 'A tool result whose toolCallId no call has: callChatApi throws "tool_result must be preceded by a tool_call with the same toolCallId".', FMT, () => viaFormat([
  ['text', 'Calling.'],
  ['tool_call', { toolCallId: 'known', toolName: 't', args: {} }],
  ['tool_result', { toolCallId: 'unknown', result: 1 }],
  ['text', 'never shown'],
]));
valid('assembly-tool-result-before-any-call', 'A tool result before any tool call: callChatApi throws "tool_result must be preceded by a tool_call".', FMT, () => viaFormat([
  ['data', [{ chatId: 'chat-r' }]],
  ['tool_result', { toolCallId: 'x', result: { ok: true } }],
]));
valid('assembly-tool-delta-unknown-call', 'An args delta for a call that never started: the SDK fails with a TypeError.', FMT, () => viaFormat([
  ['text', 'x'],
  ['tool_call_delta', { toolCallId: 'nobody', argsTextDelta: '{' }],
]));
valid('assembly-reasoning-redacted-then-resumed', 'Reasoning, a signature, redacted reasoning, then reasoning again in the same part and a new part after the step ends.', FMT, () => viaFormat([
  ['start_step', { messageId: 'msg-r1' }],
  ['reasoning', 'First '],
  ['reasoning', 'thought.'],
  ['reasoning_signature', { signature: 'sig-1' }],
  ['redacted_reasoning', { data: 'cmVkYWN0ZWQ=' }],
  ['reasoning', 'Resumed'],
  ['reasoning', ' thought.'],
  ['redacted_reasoning', { data: 'c2Vjb25k' }],
  ['redacted_reasoning', { data: 'dGhpcmQ=' }],
  ['reasoning_signature', { signature: 'ignored: no text detail' }],
  ['text', 'Answer.'],
  ['reasoning', 'After the text, same step.'],
  ['reasoning_signature', { signature: 'sig-2' }],
  ['finish_step', { finishReason: 'stop', isContinued: false }],
  ['start_step', { messageId: 'msg-r2' }],
  ['redacted_reasoning', { data: 'b25seSByZWRhY3RlZA==' }],
  ['reasoning', 'New step.'],
  ['reasoning_signature', { signature: '' }],
  ['finish_message', { finishReason: 'stop' }],
]));
valid('assembly-signature-then-error', 'A reasoning signature and then an error part: the signature never reaches onUpdate, so the message at the error has none.', FMT, () => viaFormat([
  ['reasoning', 'Thinking.'],
  ['reasoning_signature', { signature: 'sig-lost' }],
  ['finish_step', { finishReason: 'stop', isContinued: false }],
  ['error', 'An error occurred.'],
]));
valid('assembly-sources-files-between-steps', 'Sources and files before, between and after steps, with text around them.', FMT, () => viaFormat([
  ['source', { sourceType: 'url', id: 's0', url: 'https://example.com/0' }],
  ['start_step', { messageId: 'msg-s1' }],
  ['text', 'Step one.'],
  ['source', { sourceType: 'url', id: 's1', url: 'https://example.com/1', title: 'One', providerMetadata: { p: { rank: 1 } } }],
  ['text', ' Still step one.'],
  ['finish_step', { finishReason: 'tool-calls', isContinued: false }],
  ['file', { mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
  ['source', { sourceType: 'url', id: 's2', url: 'https://example.com/2' }],
  ['start_step', { messageId: 'msg-s2' }],
  ['file', { mimeType: 'text/plain', data: 'aGk=' }],
  ['text', 'Step two.'],
  ['finish_step', { finishReason: 'stop', isContinued: false }],
  ['source', { sourceType: 'url', id: 's3', url: 'https://example.com/3' }],
  ['finish_message', { finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 2 } }],
]));
valid('assembly-continued-steps', 'Steps with isContinued true keep extending the text part across step-start parts, also after a tool call; a step without it starts a new one.', FMT, () => viaFormat([
  ['start_step', { messageId: 'msg-c' }],
  ['text', 'This is cut '],
  ['finish_step', { finishReason: 'length', isContinued: true }],
  ['start_step', { messageId: 'msg-c' }],
  ['text', 'and continued '],
  ['tool_call', { toolCallId: 'c', toolName: 't', args: {} }],
  ['finish_step', { finishReason: 'length', isContinued: true }],
  ['start_step', { messageId: 'msg-c' }],
  ['text', 'twice.'],
  ['finish_step', { finishReason: 'stop', isContinued: false }],
  ['start_step', { messageId: 'msg-c2' }],
  ['text', 'New step, new part.'],
  ['finish_step', { finishReason: 'stop', isContinued: false }],
  ['finish_message', { finishReason: 'stop' }],
]));
valid('assembly-annotations-before-text', 'Message annotations before any text, an empty annotations part first, and data between them.', CDS('writeMessageAnnotation, writeData, write(formatDataStreamPart)'), () => viaDataStream((w) => {
  w.write(formatDataStreamPart('message_annotations', []));
  w.writeData({ chatId: 'chat-ann' });
  w.writeMessageAnnotation({ type: 'model', model: 'v0-1.5-md' });
  w.writeMessageAnnotation({ 2: 'b', 1: 'a', z: [1.0, 2e0] });
  w.write(formatDataStreamPart('text', 'Text after annotations.'));
  w.write(formatDataStreamPart('message_annotations', ['plain', null, 3]));
  w.writeData(null);
}));
valid('assembly-finish-without-usage', 'finish_message parts with and without usage: the last usage counts and a later part without usage keeps it.', FMT, () => viaFormat([
  ['text', 'a'],
  ['finish_message', { finishReason: 'length', usage: { promptTokens: 15, completionTokens: 2 } }],
  ['finish_message', { finishReason: 'stop' }],
]));

// --- accepted: odd inputs the SDK parser accepts ----------------------------------

accepted('crlf-line-endings', 'Every line ends in \\r\\n; the trailing \\r is JSON whitespace.', bytes('2:[{"chatId":"chat-crlf"}]\r\n0:"a"\r\n0:"b"\r\nd:{"finishReason":"stop"}\r\n'));
accepted('crlf-no-final-newline', 'CRLF lines and a last line ending in a bare \\r at EOF.', bytes('0:"a"\r\n0:"b"\r'));
accepted('utf8-bom-at-start', 'A UTF-8 BOM before the first line; TextDecoder strips it.', bytes([0xef, 0xbb, 0xbf], '2:[{"chatId":"chat-bom"}]\n0:"a"\n'));
accepted('bom-only', 'A stream that is only a UTF-8 BOM: zero parts.', bytes([0xef, 0xbb, 0xbf]));
accepted('empty-stream', 'A zero-byte stream: zero parts.', bytes(''));
accepted('only-newlines', 'A stream of newlines only: every line is empty and skipped.', bytes('\n\n\n'));
accepted('no-final-newline', 'The last line has no newline; it is still a part.', bytes('0:"a"\n0:"b"'));
accepted('whitespace-around-values', 'Spaces between the colon and the value and after the value.', bytes('0: "a" \n2:  [ 1 , { "k" : "v" } ]  \nd: {"finishReason" : "stop"}\n'));
accepted('tabs-around-values', 'Tabs around values and inside JSON structure.', bytes('0:\t"a"\t\n2:[\t1,\t2\t]\n'));
accepted('json-whitespace-all-kinds', 'Space, tab and CR, the JSON whitespace that fits inside a line, between every token.', bytes('2:[ \t\r1 \t\r, \r\t {\r"a"\t:\r1}]\r\n'));
accepted('double-cr-before-lf', 'A line ending in \\r\\r\\n: both CRs are JSON whitespace.', bytes('0:"a"\r\r\n0:"b"\n'));
accepted('blank-lines-between-parts', 'Empty lines (\\n\\n) between, before and after parts are skipped.', bytes('\n\n0:"a"\n\n\n0:"b"\n\n'));
accepted('duplicate-keys-last-wins', 'Duplicate object keys: JSON.parse keeps the last value.', bytes('9:{"toolCallId":"first","toolName":"t","args":{"x":1,"x":2},"toolCallId":"second"}\n2:[{"a":1,"a":{"b":2}}]\n'));
accepted('first-line-chat-id-duplicate-key', 'The first line repeats the chatId key: the JSON reading gives the last value, the prefix shortcut the first.', bytes('2:[{"chatId":"chat-first","chatId":"chat-last"}]\n0:"a"\n'));
accepted('first-line-chat-id-unicode-escape', 'A chatId written with \\u00e9, \\u0041 and \\/ escapes that JSON.stringify never emits.', bytes('2:[{"chatId":"caf\\u00e9-\\u0041\\/x"}]\n0:"a"\n'));
accepted('first-line-chat-id-whitespace', 'The first line with whitespace inside the JSON: 2: [ { "chatId" : "..." } ].', bytes('2: [ { "chatId" : "chat-spaced" } ]\n0:"a"\n'));
accepted('json-escapes-all-forms', 'Escapes JSON.stringify never writes: \\/, \\u for printable and non-ASCII characters, uppercase hex, an escaped surrogate pair.', bytes('0:"\\/"\n0:"\\u0041\\u00e9\\u00E9\\u4E2D"\n0:"\\ud83d\\ude00"\n0:"\\uD83D\\uDE00"\n0:"\\u2028\\u2029"\n0:"\\"\\\\\\/\\b\\f\\n\\r\\t"\n'));
accepted('invalid-utf8-in-string', 'Invalid UTF-8 bytes inside strings (stray continuation, 0xff, overlong, UTF-8-encoded surrogate, truncated sequence) become U+FFFD.', bytes('0:"a', [0x80], 'b"\n0:"', [0xff, 0xfe], '"\n0:"over', [0xc0, 0xaf], 'long"\n0:"sur', [0xed, 0xa0, 0x80], 'rogate"\n0:"cut', [0xe2, 0x82], '"\n'));
accepted('lone-surrogate-escapes', 'Escaped lone surrogates and a reversed pair are valid JSON and pass through.', bytes('0:"\\ud800"\n0:"\\udfff"\n0:"\\ude00\\ud83d"\ng:"\\udbff"\n'));
accepted('number-overflow-to-infinity', '1e400 and -1e400 parse to ±Infinity, which JSON.stringify (and so the expected reading) writes as null.', bytes('2:[1e400,-1e400]\n'));
accepted('number-big-integer', 'An integer beyond 2^53 loses precision as an IEEE double.', bytes('2:[123456789012345678901234567890,9007199254740993]\n'));
accepted('number-negative-zero', '-0 parses to negative zero, written back as 0.', bytes('2:[-0,-0.0,-0e5]\n'));
accepted('number-exponent-forms', 'Exponent forms 1E+2, 1e-2, 0.1E1, 1E0 and underflow 1e-400 to 0.', bytes('2:[1E+2,1e-2,0.1E1,1E0,1e-400,2.50e+00]\n'));
accepted('colons-inside-values', 'Colons inside values; the split is at the first colon only.', bytes('0:"a:b:c"\n2:[{"k:v":"x:y"}]\n0:":"\n'));
accepted('source-empty-object', 'h:{} passes: the source check only wants a non-null object.', bytes('h:{}\n'));
accepted('source-array', 'h:[] passes: an array is an object to typeof.', bytes('h:[]\nh:[1,"x"]\n'));
accepted('source-other-source-type', 'A source with a sourceType other than url and unknown keys is kept as is.', bytes('h:{"sourceType":"document","id":"d1","mediaType":"application/pdf","extra":[1]}\n'));
accepted('tool-call-args-null', 'A tool call with args null passes (typeof null is "object").', bytes('9:{"toolCallId":"c1","toolName":"t","args":null}\n'));
accepted('tool-call-args-array', 'A tool call with array args passes.', bytes('9:{"toolCallId":"c1","toolName":"t","args":[1,2]}\n'));
accepted('tool-call-extra-keys-kept', 'Extra keys on 9, a, b, c and k parts are kept in the value.', bytes('9:{"toolCallId":"c1","toolName":"t","args":{},"extra":1}\na:{"toolCallId":"c1","result":1,"toolName":"t","args":{}}\nb:{"toolCallId":"c1","toolName":"t","index":0}\nc:{"toolCallId":"c1","argsTextDelta":"{}","toolName":"t"}\nk:{"data":"","mimeType":"x/y","name":"f.txt"}\n'));
accepted('tool-result-null', 'A tool result whose result is null passes ("result" in value).', bytes('a:{"toolCallId":"c1","result":null}\n'));
accepted('finish-message-usage-not-numbers', 'd: with non-number usage tokens: the SDK rewrites them to NaN (null in the expected reading).', bytes('d:{"finishReason":"stop","usage":{"promptTokens":"10","completionTokens":null}}\nd:{"finishReason":"stop","usage":{"promptTokens":true,"completionTokens":[1]}}\n'));
accepted('finish-message-usage-dropped', 'd: usage that is null, not an object or missing a key is dropped from the value.', bytes('d:{"finishReason":"stop","usage":null}\nd:{"finishReason":"stop","usage":{"promptTokens":1}}\nd:{"finishReason":"stop","usage":5}\n'));
accepted('finish-message-extra-keys-dropped', 'd: is rebuilt, so unknown keys and extra usage keys are dropped.', bytes('d:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2,"totalTokens":3},"isContinued":true,"x":1}\n'));
accepted('finish-reason-not-in-enum', 'finishReason is any string; values outside the enum pass.', bytes('d:{"finishReason":"banana"}\ne:{"finishReason":"","isContinued":false}\n'));
accepted('finish-step-without-is-continued', 'e: without isContinued: the SDK adds isContinued false.', bytes('e:{"finishReason":"stop"}\ne:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}\n'));
accepted('finish-step-is-continued-not-boolean', 'e: with a non-boolean isContinued: the SDK uses false.', bytes('e:{"finishReason":"stop","isContinued":"true"}\ne:{"finishReason":"stop","isContinued":1}\n'));
accepted('finish-step-usage-not-numbers', 'e: with non-number usage tokens, rewritten to NaN (null in the expected reading).', bytes('e:{"finishReason":"stop","usage":{"promptTokens":"1","completionTokens":{}},"isContinued":true}\n'));
accepted('start-step-extra-keys-dropped', 'f: is rebuilt to {messageId}; extra keys are dropped.', bytes('f:{"messageId":"m1","id":"x","timestamp":0}\n'));
accepted('redacted-reasoning-extra-keys-dropped', 'i: is rebuilt to {data}; extra keys are dropped.', bytes('i:{"data":"abc","type":"redacted"}\n'));
accepted('reasoning-signature-extra-keys-dropped', 'j: is rebuilt to {signature}; extra keys are dropped.', bytes('j:{"signature":"s","data":"x"}\n'));
accepted('file-data-not-base64', 'k: data is any string; it is not checked to be base64.', bytes('k:{"data":"not base64!","mimeType":"text/plain"}\n'));
accepted('data-array-of-anything', 'Code 2 and 8 arrays of mixed scalars, nulls and nested containers.', bytes('2:[null,true,false,0,"",[],{}]\n8:[null]\n'));
accepted('proto-key-in-data', 'A "__proto__" key becomes an own property in JSON.parse and is kept.', bytes('2:[{"__proto__":{"polluted":true},"constructor":1}]\n'));
accepted('cr-as-json-whitespace-mid-line', 'A bare \\r in the middle of a line is JSON whitespace, not a line break.', bytes('2:[1,\r2]\n0:\r"a"\n'));
accepted('text-escaped-nul', 'A text value holding NUL escaped as \\u0000.', bytes('0:"a\\u0000b"\n'));

// --- invalid: what the SDK parser rejects ----------------------------------------

invalid('no-separator', 'A line without a colon.', bad('0"no colon"'));
invalid('unknown-code-x', 'An unknown one-character code x.', bad('x:"a"'));
invalid('empty-code', 'An empty code: the line starts with the colon.', bad(':"a"'));
invalid('multi-char-code-10', 'A two-character code 10.', bad('10:"a"'));
invalid('multi-char-code-aui-state', 'The assistant-stream extension code aui-state.', bad('aui-state:[{"type":"set","path":["x"],"value":1}]'));
invalid('uppercase-code', 'An uppercase code A instead of a.', bad('A:{"toolCallId":"c1","result":1}'));
invalid('leading-space-before-code', 'A space before the code.', bad(' 0:"a"'));
invalid('space-before-colon', 'A space between the code and the colon.', bad('0 :"a"'));
invalid('removed-v3-code-1', 'Code 1 (function_call in ai 3.x) is not a v4 code.', bad('1:{"function_call":{"name":"f","arguments":"{}"}}'));
invalid('removed-v3-code-4', 'Code 4 (assistant_message in ai 3.x) is not a v4 code.', bad('4:{"id":"m","role":"assistant","content":[]}'));
invalid('removed-v3-code-5', 'Code 5 (assistant_control_data in ai 3.x) is not a v4 code.', bad('5:{"threadId":"t","messageId":"m"}'));
invalid('removed-v3-code-6', 'Code 6 (data_message in ai 3.x) is not a v4 code.', bad('6:{"role":"data","data":{}}'));
invalid('removed-v3-code-7', 'Code 7 (tool_calls in ai 3.x) is not a v4 code.', bad('7:{"tool_calls":[]}'));
invalid('mid-stream-bom', 'A UTF-8 BOM at the start of line 5 becomes part of the code.', bytes(GOOD, [0xef, 0xbb, 0xbf], '0:"a"\n', AFTER));
invalid('double-bom-at-start', 'Two BOMs at the start: TextDecoder strips one, the second makes the code invalid.', bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], GOOD, AFTER));
invalid('invalid-utf8-in-code', 'An invalid UTF-8 byte as the code decodes to U+FFFD, an invalid code.', bad(bytes([0xff], ':"a"')));
invalid('cr-only-line-ends', 'Lines separated by \\r alone: the SDK sees one line with text after the first value.', bytes(GOOD, '0:"a"\r0:"b"\r', '\n', AFTER));
invalid('blank-crlf-line', 'A blank CRLF line (\\r\\n\\r\\n) leaves a line holding only \\r: No separator found (chatwire skips it, a deliberate leniency).', bytes(GOOD.replaceAll('\n', '\r\n'), '\r\n', '0:"after blank"\r\n'));
invalid('trailing-lone-cr-at-eof', 'A final line holding only \\r after the last newline: No separator found (chatwire skips it, a deliberate leniency).', bytes(GOOD, '\r'));
invalid('whitespace-only-line', 'A line of spaces is not empty, so it is parsed and has no colon.', bad('   '));
invalid('tab-only-line', 'A line holding a tab is not empty and has no colon.', bad('\t'));
invalid('bom-before-value', 'U+FEFF between the colon and the value is not JSON whitespace.', bad('0:\uFEFF"a"'));
invalid('nbsp-before-value', 'U+00A0 before the value is not JSON whitespace.', bad('0:\u00A0"a"'));
invalid('form-feed-before-value', 'A form feed before the value is not JSON whitespace.', bad('0:\f"a"'));
invalid('nul-after-value', 'A NUL byte after the value is trailing garbage.', bad('0:"a"\u0000'));
invalid('invalid-utf8-after-value', 'An invalid UTF-8 byte after the value decodes to U+FFFD, trailing garbage.', bad(bytes('0:"a"', [0xff])));
// Malformed JSON.
invalid('json-unterminated-string', 'A string value without its closing quote.', bad('0:"abc'));
invalid('json-trailing-comma-array', 'A trailing comma in an array.', bad('2:[1,2,]'));
invalid('json-trailing-comma-object', 'A trailing comma in an object.', bad('2:[{"a":1,}]'));
invalid('json-single-quotes', 'A single-quoted string.', bad("0:'a'"));
invalid('json-unquoted-key', 'An unquoted object key.', bad('2:[{a:1}]'));
invalid('json-nan-literal', 'The NaN literal.', bad('2:[NaN]'));
invalid('json-infinity-literal', 'The Infinity literal.', bad('2:[Infinity]'));
invalid('json-leading-zero', 'A number with a leading zero: 01.', bad('2:[01]'));
invalid('json-plus-sign', 'A number with a plus sign: +1.', bad('2:[+1]'));
invalid('json-leading-dot', 'A number starting with a dot: .5.', bad('2:[.5]'));
invalid('json-trailing-dot', 'A number ending with a dot: 1.', bad('2:[1.]'));
invalid('json-exponent-without-digits', 'An exponent without digits: 1e.', bad('2:[1e]'));
invalid('json-lone-minus', 'A minus sign without digits.', bad('2:[-]'));
invalid('json-hex-number', 'A hexadecimal number 0x10.', bad('2:[0x10]'));
invalid('json-raw-tab-in-string', 'A raw tab inside a string.', bad('0:"a\tb"'));
invalid('json-raw-control-char-in-string', 'A raw U+0001 inside a string.', bad('0:"a\u0001b"'));
invalid('json-raw-cr-in-string', 'A raw carriage return inside a string.', bad('0:"a\rb"'));
invalid('json-bad-escape', 'An unknown escape \\x41.', bad('0:"\\x41"'));
invalid('json-bad-escape-single-quote', "An escaped single quote \\' is not JSON.", bad("0:\"it\\'s\""));
invalid('json-short-unicode-escape', 'A \\u escape with only two hex digits.', bad('0:"\\u12"'));
invalid('json-non-hex-unicode-escape', 'A \\u escape with non-hex digits.', bad('0:"\\uZZZZ"'));
invalid('json-trailing-garbage', 'A second value after the first.', bad('0:"a" "b"'));
invalid('json-trailing-garbage-colon', 'A colon and another value after the value.', bad('0:"a":"b"'));
invalid('json-empty-value', 'Nothing after the colon.', bad('0:'));
invalid('json-whitespace-only-value', 'Only whitespace after the colon.', bad('0:   '));
invalid('json-truncated-literal', 'A truncated literal tru.', bad('2:[tru]'));
invalid('json-nested-truncation', 'A nested value cut off mid-way.', bad('2:[{"a":[1,{"b":'));
invalid('json-unclosed-array', 'An array without its closing bracket.', bad('2:[1,2'));
invalid('json-comment', 'A JavaScript comment inside the value.', bad('2:[1 /* c */]'));
invalid('json-undefined', 'formatDataStreamPart("text", undefined) writes 0:undefined, which cannot be parsed.', bad('0:undefined'));
// Wrong shape per code.
invalid('shape-text-number', 'Code 0 with a number.', bad('0:42'));
invalid('shape-text-null', 'Code 0 with null.', bad('0:null'));
invalid('shape-data-object', 'Code 2 with an object instead of an array.', bad('2:{"chatId":"x"}'));
invalid('shape-error-number', 'Code 3 with a number.', bad('3:500'));
invalid('shape-annotations-object', 'Code 8 with an object instead of an array.', bad('8:{"a":1}'));
invalid('shape-tool-call-missing-tool-name', 'Code 9 without toolName.', bad('9:{"toolCallId":"c1","args":{}}'));
invalid('shape-tool-call-args-string', 'Code 9 with args as a JSON string (the model-side form).', bad('9:{"toolCallId":"c1","toolName":"t","args":"{\\"x\\":1}"}'));
invalid('shape-tool-call-missing-args', 'Code 9 without args.', bad('9:{"toolCallId":"c1","toolName":"t"}'));
invalid('shape-tool-call-id-number', 'Code 9 with a numeric toolCallId.', bad('9:{"toolCallId":1,"toolName":"t","args":{}}'));
invalid('shape-tool-call-null', 'Code 9 with null.', bad('9:null'));
invalid('shape-tool-result-missing-result', 'Code a without result.', bad('a:{"toolCallId":"c1"}'));
invalid('shape-tool-result-array', 'Code a with an array.', bad('a:["c1",1]'));
invalid('shape-tool-call-streaming-start-missing-tool-name', 'Code b without toolName.', bad('b:{"toolCallId":"c1"}'));
invalid('shape-tool-call-delta-args-number', 'Code c with a numeric argsTextDelta.', bad('c:{"toolCallId":"c1","argsTextDelta":5}'));
invalid('shape-finish-message-missing-finish-reason', 'Code d without finishReason.', bad('d:{"usage":{"promptTokens":1,"completionTokens":1}}'));
invalid('shape-finish-message-finish-reason-number', 'Code d with a numeric finishReason.', bad('d:{"finishReason":1}'));
invalid('shape-finish-step-missing-finish-reason', 'Code e without finishReason.', bad('e:{"isContinued":false}'));
invalid('shape-start-step-missing-message-id', 'Code f without messageId (the SDK message says "id").', bad('f:{}'));
invalid('shape-start-step-id-instead-of-message-id', 'Code f with id instead of messageId.', bad('f:{"id":"msg-1"}'));
invalid('shape-reasoning-number', 'Code g with a number.', bad('g:1'));
invalid('shape-source-string', 'Code h with a string.', bad('h:"https://example.com"'));
invalid('shape-source-null', 'Code h with null.', bad('h:null'));
invalid('shape-redacted-reasoning-missing-data', 'Code i without data.', bad('i:{"signature":"s"}'));
invalid('shape-reasoning-signature-missing-signature', 'Code j without signature.', bad('j:{"data":"x"}'));
invalid('shape-file-missing-mime-type', 'Code k without mimeType.', bad('k:{"data":"aGk="}'));
// Truncation at EOF.
invalid('truncated-mid-line-at-eof', 'The stream ends in the middle of a string value.', bytes(GOOD, '0:"Hel'));
invalid('truncated-after-colon-at-eof', 'The stream ends right after a code and colon.', bytes(GOOD, '0:'));
invalid('truncated-code-only-at-eof', 'The stream ends after a bare code.', bytes(GOOD, '0'));
invalid('truncated-mid-escape-at-eof', 'The stream ends inside an escape sequence.', bytes(GOOD, '0:"a\\u00'));
invalid('truncated-utf8-at-eof', 'The stream ends inside a string and a multibyte character (processDataStream drops the partial bytes, the line reading decodes them to U+FFFD).', bytes(GOOD, '0:"caf', [0xc3]));
invalid('truncated-utf8-after-final-value-at-eof', 'A complete last value followed by a partial multibyte character at EOF: U+FFFD after the value (processDataStream drops the bytes and accepts).', bytes(GOOD, '0:"done"', [0xe2, 0x82]));

// ---------------------------------------------------------------------------
// Reading a stream the way the SDK does.

// errorKind names which SDK check rejected a line.
function errorKind(err) {
  if (err.message === 'Failed to parse stream string. No separator found.') return 'separator';
  if (err.message.startsWith('Failed to parse stream string. Invalid code ')) return 'code';
  if (err instanceof SyntaxError) return 'json';
  return 'shape';
}

// readLines decodes like processDataStream (TextDecoder: one leading BOM
// stripped, invalid UTF-8 to U+FFFD), splits on \n keeping physical line
// numbers, skips empty lines and calls parseDataStreamPart on each.
function readLines(buf) {
  const text = new TextDecoder().decode(buf);
  const lines = text.split('\n');
  const parts = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') continue;
    let part;
    try {
      part = parseDataStreamPart(line);
    } catch (err) {
      return { parts, error: { line: i + 1, message: err.message, kind: errorKind(err) } };
    }
    parts.push({ line: i + 1, code: line.slice(0, line.indexOf(':')), type: part.type, value: part.value });
  }
  return { parts, error: null };
}

const CALLBACKS = [
  'onTextPart', 'onReasoningPart', 'onReasoningSignaturePart', 'onRedactedReasoningPart', 'onSourcePart',
  'onFilePart', 'onDataPart', 'onErrorPart', 'onToolCallStreamingStartPart', 'onToolCallDeltaPart',
  'onToolCallPart', 'onToolResultPart', 'onMessageAnnotationsPart', 'onFinishMessagePart', 'onFinishStepPart',
  'onStartStepPart',
];

// viaProcessDataStream feeds buf to the SDK's processDataStream in chunks of
// chunkSize bytes (0: one chunk) and collects every part.
async function viaProcessDataStream(buf, chunkSize) {
  const parts = [];
  const callbacks = {};
  for (const name of CALLBACKS) callbacks[name] = (value) => { parts.push({ callback: name, value }); };
  const size = chunkSize || buf.length || 1;
  let at = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (at >= buf.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(buf.subarray(at, at + size)));
      at += size;
    },
  });
  try {
    await processDataStream({ stream, ...callbacks });
    return { parts, error: null };
  } catch (err) {
    return { parts, error: { message: err.message } };
  }
}

const CALLBACK_BY_TYPE = {
  text: 'onTextPart', reasoning: 'onReasoningPart', reasoning_signature: 'onReasoningSignaturePart',
  redacted_reasoning: 'onRedactedReasoningPart', source: 'onSourcePart', file: 'onFilePart', data: 'onDataPart',
  error: 'onErrorPart', tool_call_streaming_start: 'onToolCallStreamingStartPart', tool_call_delta: 'onToolCallDeltaPart',
  tool_call: 'onToolCallPart', tool_result: 'onToolResultPart', message_annotations: 'onMessageAnnotationsPart',
  finish_message: 'onFinishMessagePart', finish_step: 'onFinishStepPart', start_step: 'onStartStepPart',
};

// compare reports how a processDataStream run relates to the line reading.
function compare(reading, run) {
  const want = reading.parts.map((p) => ({ callback: CALLBACK_BY_TYPE[p.type], value: p.value }));
  const prefix = run.parts.length <= want.length && isDeepStrictEqual(run.parts, want.slice(0, run.parts.length));
  const sameError = (reading.error === null && run.error === null) ||
    (reading.error !== null && run.error !== null && reading.error.message === run.error.message);
  if (reading.error === null) {
    const same = prefix && run.parts.length === want.length && sameError;
    return { parts: run.parts.length, same, error: run.error ? run.error.message : null };
  }
  // On an error, processDataStream parses a whole batch before any callback,
  // so it delivers only a prefix of the parts before the bad line.
  return { parts: run.parts.length, same: prefix && sameError, error: run.error ? run.error.message : null };
}

// ---------------------------------------------------------------------------
// The assembled message: what callChatApi (processChatResponse inside) makes
// of a stream, for every line prefix of it.

// GENERATED_ID is the id the SDK's generateId gives the message (and each
// revisionId); NAME.assembly.jsonl drops it, as chatwire keeps only the id
// of an f part.
const GENERATED_ID = 'generated-id';
// An assembly entry carries the whole result inline up to this many bytes.
const INLINE_RESULT_MAX = 64 << 10;

// lineChunks cuts buf after every \n: one chunk per physical line, as a
// server that flushes every part sends it. processDataStream handles each
// chunk (each ends in \n) as its own batch, so the callbacks run line by
// line and a bad line loses nothing before it.
function lineChunks(buf) {
  const chunks = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] === 0x0a) {
      chunks.push(buf.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < buf.length) chunks.push(buf.subarray(start));
  return chunks;
}

// shown is the SDK's message as chatwire reports it: without createdAt and
// revisionId, and without the generated id. Before the first onUpdate it is
// the message processChatResponse starts from.
function shown(message) {
  if (message == null) return { role: 'assistant', content: '', parts: [] };
  const out = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === 'createdAt' || key === 'revisionId' || (key === 'id' && value === GENERATED_ID)) continue;
    out[key] = value;
  }
  return out;
}

// viaCallChatApi runs the real callChatApi on the chunks, with a fetch that
// answers 200 with them as the body. Without an error the result is
// onFinish's message, finishReason and usage with the data of the last
// onUpdate; when callChatApi throws, it is the last onUpdate (message and
// data) and the error's message.
async function viaCallChatApi(chunks) {
  let update = null;
  let finish = null;
  let at = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (at >= chunks.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(chunks[at++]));
    },
  }, { highWaterMark: 0 });
  try {
    await callChatApi({
      api: 'http://127.0.0.1/api/chat',
      body: { messages: [] },
      streamProtocol: 'data',
      fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
      restoreMessagesOnFailure: () => {},
      onUpdate: ({ message, data }) => { update = { message, data }; },
      onFinish: (message, { usage, finishReason }) => { finish = { message, usage, finishReason }; },
      generateId: () => GENERATED_ID,
    });
  } catch (err) {
    return {
      error: err.message,
      json: JSON.stringify({ message: shown(update && update.message), data: update ? update.data : [] }),
    };
  }
  return {
    error: null,
    json: JSON.stringify({ message: shown(finish.message), data: update ? update.data : [], finishReason: finish.finishReason, usage: finish.usage }),
  };
}

// assembly returns NAME.assembly.jsonl: one line per prefix of the stream
// cut after line k (k = 0 is the empty prefix), up to the first prefix at
// which callChatApi throws (every longer prefix throws the same there).
async function assembly(buf) {
  const chunks = lineChunks(buf);
  const out = [];
  for (let k = 0; k <= chunks.length; k++) {
    const r = await viaCallChatApi(chunks.slice(0, k));
    const last = r.error !== null || k === chunks.length;
    let line = `{"line":${k}`;
    if (r.error !== null) line += `,"error":${JSON.stringify(r.error)}`;
    line += `,"sha256":"${sha256(Buffer.from(r.json, 'utf8'))}"`;
    if (last && r.json.length <= INLINE_RESULT_MAX) line += `,"result":${r.json}`;
    out.push(`${line}}\n`);
    if (r.error !== null) break;
  }
  return out.join('');
}

// PARTIAL_JSON_TEXTS are args texts whose every prefix (cut between code
// points) goes through the SDK's parsePartialJson for streams/partial-json.jsonl.
const PARTIAL_JSON_TEXTS = [
  '{"a":"x\\"y\\\\z\\u00e9\\/","n":-12.5e-3,"t":true,"f":false,"z":null,"arr":[[],{},[1,[2,{"k":"v"}]]],"ü":"😀","e":1E+2}',
  '[1, -2.5e+10, "é😀中", {"k": [true, false, null]}, 0, -0, 0.5]',
  ' { "spaced" : [ 1 , 2 ] , "s" : "a b" } ',
  '{"1":"a","0":"b","x":1,"x":2,"4294967295":3,"-1":4}',
  '{"a":"\\ud83d\\ude00","b":"\\ud800","c":"\\u0000\\u001f\\u2028"}',
  '[0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 1e400, 123456789012345678901]',
  '"a string with a \\n newline and a \\" quote"',
  '123.456e-7',
  'true',
  'null',
  '{"__proto__":{"x":1}}',
  '{"a":{"constructor":{"prototype":1}}}',
  '{"constructor":null}',
  '{"constructor":[],"b":{"constructor":"x"}}',
  '{"constructor":{"x":{"prototype":1}}}',
  '[{"__proto__":1}]',
  '\uFEFF{"bom":1}',
  '{"a":1}}',
  '[1,,2]',
  '{"a" 1}',
  '01',
  '[tru]',
  '{"a":tx}',
  '[1.]',
  '[-]',
  '{"a":-}',
  '[1e]',
  '[1é]',
  '{"a":1é}',
  '[nullx, 2]',
  '{"k":[1,{"x":"y"},[true,[null]]]}',
  'garbage',
  '{"open": [1, "two", {"three": 3',
  '[[[[[[[[[[1]]]]]]]]]]',
  // Keys with escapes: fixJson's key state knows none, so it ends a key at
  // an escaped quote, and a prefix cut past one may not parse.
  '{"\\":0":"","a\\"b":1,"c\\\\":2}',
];

// partialJsonCases runs parsePartialJson on every prefix of every text.
function partialJsonCases() {
  const out = [];
  const seen = new Set();
  for (const text of PARTIAL_JSON_TEXTS) {
    const points = Array.from(text);
    for (let n = 0; n <= points.length; n++) {
      const prefix = points.slice(0, n).join('');
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      const r = parsePartialJson(prefix);
      out.push(`${JSON.stringify({ text: prefix, state: r.state, value: r.value })}\n`);
    }
  }
  return out.join('');
}

// ---------------------------------------------------------------------------
// Main.

function sha256(buf) {
  return createHash('sha256').update(buf).digest('hex');
}

function version(pkg) {
  return JSON.parse(readFileSync(join(HERE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

async function main() {
  // Expected errors quote V8's JSON.parse messages, which change between
  // Node majors; the committed corpus was made with Node 20.
  if (process.versions.node.split('.')[0] !== '20' && process.env.CORPUS_ANY_NODE !== '1') {
    console.error(`generate.mjs: Node ${process.version}: use Node 20 (JSON.parse error texts differ between majors), or set CORPUS_ANY_NODE=1 and review the diff`);
    process.exit(2);
  }
  rmSync(STREAMS, { recursive: true, force: true });
  for (const cls of CLASSES) mkdirSync(join(STREAMS, cls), { recursive: true });

  const files = {};
  const differences = [];
  const sorted = [...CASES].sort((a, b) => (a.cls + '/' + a.name < b.cls + '/' + b.name ? -1 : 1));
  for (const c of sorted) {
    const buf = Buffer.from(await c.make());
    const reading = readLines(buf);

    if (c.cls === 'invalid' && reading.error === null) {
      throw new Error(`invalid/${c.name}: the SDK accepts it; move it to accepted/`);
    }
    if (c.cls !== 'invalid' && reading.error !== null) {
      throw new Error(`${c.cls}/${c.name}: the SDK rejects line ${reading.error.line}: ${reading.error.message}`);
    }
    if (c.cls === 'valid' && (buf.length === 0 || buf.at(-1) !== 0x0a || buf.includes(0x0d))) {
      throw new Error(`valid/${c.name}: an SDK writer produced something other than LF-terminated lines`);
    }

    const out = reading.parts.map((p) => JSON.stringify({ line: p.line, code: p.code, value: p.value }));
    if (reading.error) out.push(JSON.stringify({ error: reading.error }));
    const expected = out.map((l) => `${l}\n`).join('');

    const rel = `${c.cls}/${c.name}.stream`;
    writeFileSync(join(STREAMS, rel), buf);
    writeFileSync(join(STREAMS, c.cls, `${c.name}.expected.jsonl`), expected);
    writeFileSync(join(STREAMS, c.cls, `${c.name}.assembly.jsonl`), await assembly(buf));

    const oneChunk = compare(reading, await viaProcessDataStream(buf, 0));
    const chunked = compare(reading, await viaProcessDataStream(buf, CROSS_CHECK_CHUNK));
    for (const [how, r] of [['one chunk', oneChunk], [`${CROSS_CHECK_CHUNK}-byte chunks`, chunked]]) {
      if (!r.same) {
        const msg = `${rel}: processDataStream (${how}) differs from the line reading: ` +
          `${r.parts} parts, error ${JSON.stringify(r.error)}; line reading: ${reading.parts.length} parts, ` +
          `error ${JSON.stringify(reading.error && reading.error.message)}`;
        differences.push(msg);
      }
    }

    files[rel] = {
      class: c.cls,
      description: c.description,
      produced_by: c.producedBy,
      parts: reading.parts.length,
      lines: buf.length === 0 ? 0 : new TextDecoder().decode(buf).split('\n').length - (buf.at(-1) === 0x0a ? 1 : 0),
      bytes: buf.length,
      sha256: sha256(buf),
      error: reading.error,
      process_data_stream: {
        one_chunk: { parts: oneChunk.parts, error: oneChunk.error, same: oneChunk.same },
        [`chunks_of_${CROSS_CHECK_CHUNK}`]: { parts: chunked.parts, error: chunked.error, same: chunked.same },
      },
    };
  }

  const manifest = {
    generator: 'corpus/generator/generate.mjs',
    regenerate: 'cd corpus/generator && npm ci && node generate.mjs',
    sdk: { ai: version('ai'), '@ai-sdk/ui-utils': version('@ai-sdk/ui-utils') },
    // The major only: the output depends on it (V8's JSON.parse messages),
    // not on the minor or patch, so that any Node 20 reproduces the file.
    node: `${process.versions.node.split('.')[0]}.x`,
    counts: Object.fromEntries(CLASSES.map((cls) => [cls, sorted.filter((c) => c.cls === cls).length])),
    files,
  };
  writeFileSync(join(STREAMS, 'MANIFEST.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(STREAMS, 'partial-json.jsonl'), partialJsonCases());

  const counts = CLASSES.map((cls) => `${cls} ${manifest.counts[cls]}`).join(', ');
  console.log(`wrote ${sorted.length} streams (${counts}) to corpus/streams/`);
  if (differences.length > 0) {
    console.log(`${differences.length} processDataStream differences (see corpus/README.md):`);
    for (const d of differences) console.log(`  ${d}`);
  }
}

await main();
