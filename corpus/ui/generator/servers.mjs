// servers.mjs holds the streams written by the real servers of ai 5, 6 and
// 7 (the newest release of each): streamText with a mock language model
// and toUIMessageStreamResponse, and createUIMessageStream with a writer,
// through createUIMessageStreamResponse. Each case returns the Response;
// the generator keeps its body bytes and its headers.
//
// Ids are fixed: the mock model names its text, reasoning and tool call
// ids; streamText's _internal.generateId (approval ids and the ids of
// parts the model does not name) and createUIMessageStream's generateId
// are counters; the message id comes from generateMessageId. No case
// waits on a timer, so no keep-alive comment depends on timing.

import { z } from 'zod';

// counter returns an id generator prefix1, prefix2, ...
export function counter(prefix) {
  let n = 0;
  return () => `${prefix}${++n}`;
}

// ModelParts writes the parts of a mock model's stream in the shape of the
// language model spec a major uses: V2 (ai 5), V3 (ai 6), V4 (ai 7).
class ModelParts {
  constructor(major) {
    this.major = major;
  }
  start() {
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'resp-1', modelId: 'mock-model-id', timestamp: new Date(0) },
    ];
  }
  text(id, deltas, providerMetadata) {
    const pm = providerMetadata === undefined ? {} : { providerMetadata };
    return [
      { type: 'text-start', id, ...pm },
      ...deltas.map((delta) => ({ type: 'text-delta', id, delta })),
      { type: 'text-end', id },
    ];
  }
  reasoning(id, deltas, signature) {
    const end = { type: 'reasoning-end', id };
    if (signature !== undefined) end.providerMetadata = { anthropic: { signature } };
    return [
      { type: 'reasoning-start', id },
      ...deltas.map((delta) => ({ type: 'reasoning-delta', id, delta })),
      end,
    ];
  }
  // toolCall streams the input of a call in deltas, then the call itself.
  toolCall(toolCallId, toolName, deltas, extra = {}) {
    return [
      { type: 'tool-input-start', id: toolCallId, toolName, ...extra },
      ...deltas.map((delta) => ({ type: 'tool-input-delta', id: toolCallId, delta })),
      { type: 'tool-input-end', id: toolCallId },
      { type: 'tool-call', toolCallId, toolName, input: deltas.join(''), ...extra },
    ];
  }
  sourceURL(id, url, title) {
    return { type: 'source', sourceType: 'url', id, url, title };
  }
  sourceDocument(id, mediaType, title, filename) {
    return { type: 'source', sourceType: 'document', id, mediaType, title, filename };
  }
  file(mediaType, base64) {
    if (this.major >= 7) return { type: 'file', mediaType, data: { type: 'data', data: base64 } };
    return { type: 'file', mediaType, data: base64 };
  }
  finish(reason, input = 10, output = 20) {
    if (this.major === 5) {
      return { type: 'finish', finishReason: reason, usage: { inputTokens: input, outputTokens: output, totalTokens: input + output } };
    }
    return {
      type: 'finish',
      finishReason: { unified: reason, raw: reason },
      usage: {
        inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: output, text: output, reasoning: undefined },
      },
    };
  }
}

// mockModel returns the major's mock language model whose n-th call
// streams steps[n].
function mockModel(major, test, steps) {
  const Mock = { 5: test.MockLanguageModelV2, 6: test.MockLanguageModelV3, 7: test.MockLanguageModelV4 }[major];
  let call = 0;
  return new Mock({
    doStream: async () => {
      const parts = steps[call++];
      if (parts === undefined) throw new Error(`mock model called ${call} times, has ${steps.length} steps`);
      if (parts instanceof Error) throw parts;
      return { stream: test.convertArrayToReadableStream(parts) };
    },
  });
}

// streamTextResponse runs streamText with the mock model and returns
// toUIMessageStreamResponse's Response.
async function streamTextResponse(ctx, { steps, tools, stopSteps = 1, options = {}, response = {}, uiMessages }) {
  const { sdk, test, major } = ctx;
  const messages = uiMessages === undefined ? undefined : await sdk.convertToModelMessages(uiMessages, { tools });
  const result = sdk.streamText({
    model: mockModel(major, test, steps),
    ...(messages === undefined ? { prompt: 'Hello' } : { messages }),
    tools,
    stopWhen: sdk.stepCountIs(stopSteps),
    _internal: { generateId: counter('gen-'), currentDate: () => new Date(0), now: () => 0 },
    onError: () => {}, // streamText logs stream errors to the console unless told
    ...options,
  });
  return result.toUIMessageStreamResponse({ generateMessageId: counter('msg-'), ...response });
}

// writerResponse runs createUIMessageStream with execute and returns
// createUIMessageStreamResponse's Response.
function writerResponse(ctx, execute, options = {}) {
  const { sdk } = ctx;
  const stream = sdk.createUIMessageStream({ execute, generateId: counter('gen-'), ...options });
  return sdk.createUIMessageStreamResponse({ stream });
}

const weatherInput = z.object({ city: z.string() });

function weatherTool(sdk, extra = {}) {
  return sdk.tool({
    description: 'Get the weather of a city',
    inputSchema: weatherInput,
    execute: async ({ city }) => ({ city, temperature: 21, unit: 'C' }),
    ...extra,
  });
}

// A data URL's payload: the PNG signature and an IHDR chunk start.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// serverCases returns the cases of a major: {name, description, producedBy,
// response(ctx)}. A case with continues names the case whose reading it
// continues: its response(ctx, message) gets the message that case left,
// changed as the client changes it before it sends the request again.
export function serverCases(major) {
  const m = new ModelParts(major);
  const cases = [];
  const add = (name, description, producedBy, response, extra = {}) =>
    cases.push({ name, description, producedBy, response, ...extra });
  const ST = 'streamText + toUIMessageStreamResponse';
  const WS = 'createUIMessageStream + createUIMessageStreamResponse';

  add('text', 'plain text in three deltas, with a message id', ST, (ctx) =>
    streamTextResponse(ctx, { steps: [[...m.start(), ...m.text('txt-1', ['Hello', ', ', 'world!']), m.finish('stop')]] }),
  );
  add('text-no-message-id', 'plain text, no generateMessageId: the start chunk has no messageId', ST, (ctx) => {
    const { sdk, test } = ctx;
    const result = sdk.streamText({
      model: mockModel(major, test, [[...m.start(), ...m.text('txt-1', ['Hi']), m.finish('stop')]]),
      prompt: 'Hello',
      _internal: { generateId: counter('gen-'), currentDate: () => new Date(0), now: () => 0 },
    onError: () => {}, // streamText logs stream errors to the console unless told
    });
    return result.toUIMessageStreamResponse();
  });
  add('text-two-blocks', 'two text blocks in one step, interleaved deltas, one with provider metadata', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [
        [
          ...m.start(),
          { type: 'text-start', id: 'txt-a' },
          { type: 'text-start', id: 'txt-b', providerMetadata: { mock: { block: 'b' } } },
          { type: 'text-delta', id: 'txt-a', delta: 'First ' },
          { type: 'text-delta', id: 'txt-b', delta: 'Second ' },
          { type: 'text-delta', id: 'txt-a', delta: 'block.' },
          { type: 'text-end', id: 'txt-a' },
          { type: 'text-delta', id: 'txt-b', delta: 'block.' },
          { type: 'text-end', id: 'txt-b' },
          m.finish('stop'),
        ],
      ],
    }),
  );
  add('text-unicode', 'text with non-ASCII, emoji, U+2028, quotes, backslashes and control characters', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.text('txt-1', ['caf\u00e9 \u{1F600} ', 'line\u2028sep "q" \\ ', 'tab\t nl\n cr\r nul\u0000 <&>']), m.finish('stop')]],
    }),
  );
  add('finish-length', 'text cut by the length limit: finishReason length', ST, (ctx) =>
    streamTextResponse(ctx, { steps: [[...m.start(), ...m.text('txt-1', ['Once upon']), m.finish('length')]] }),
  );
  add('reasoning', 'reasoning with a signature in provider metadata, then text', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.reasoning('rsn-1', ['Let me think', ' about it.'], 'sig-abc'), ...m.text('txt-1', ['Answer: 42']), m.finish('stop')]],
    }),
  );
  add('reasoning-not-sent', 'reasoning with sendReasoning: false: only the text reaches the client', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.reasoning('rsn-1', ['hidden']), ...m.text('txt-1', ['Shown']), m.finish('stop')]],
      response: { sendReasoning: false },
    }),
  );
  add('tool-execute', 'a static tool with execute: input streamed in deltas, output, then a second step with text', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { weather: weatherTool(ctx.sdk) },
      stopSteps: 2,
      steps: [
        [...m.start(), ...m.toolCall('call-1', 'weather', ['{"ci', 'ty":"Ber', 'lin"}']), m.finish('tool-calls')],
        [...m.start(), ...m.text('txt-2', ['It is 21 C in Berlin.']), m.finish('stop')],
      ],
    }),
  );
  add('tool-parallel', 'two calls in one step, their inputs interleaved, outputs then a text step', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { weather: weatherTool(ctx.sdk) },
      stopSteps: 2,
      steps: [
        [
          ...m.start(),
          { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
          { type: 'tool-input-start', id: 'call-2', toolName: 'weather' },
          { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
          { type: 'tool-input-delta', id: 'call-2', delta: '{"city":"Oslo"}' },
          { type: 'tool-input-delta', id: 'call-1', delta: '"Rome"}' },
          { type: 'tool-input-end', id: 'call-2' },
          { type: 'tool-input-end', id: 'call-1' },
          { type: 'tool-call', toolCallId: 'call-2', toolName: 'weather', input: '{"city":"Oslo"}' },
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Rome"}' },
          m.finish('tool-calls'),
        ],
        [...m.start(), ...m.text('txt-2', ['Rome and Oslo: both 21 C.']), m.finish('stop')],
      ],
    }),
  );
  add('tool-call-no-deltas', 'a tool call the model sends whole (no tool-input-start or deltas)', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { weather: weatherTool(ctx.sdk) },
      steps: [[...m.start(), { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Paris"}' }, m.finish('tool-calls')]],
    }),
  );
  add('tool-dynamic', 'a dynamic tool (dynamicTool) with execute: dynamic-tool parts', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: {
        lookup: ctx.sdk.dynamicTool({
          description: 'Look a word up',
          inputSchema: z.object({ word: z.string() }),
          execute: async (input) => ({ definition: `the meaning of ${input.word}` }),
        }),
      },
      stopSteps: 2,
      steps: [
        [...m.start(), ...m.toolCall('call-1', 'lookup', ['{"word":', '"chat"}']), m.finish('tool-calls')],
        [...m.start(), ...m.text('txt-2', ['Done.']), m.finish('stop')],
      ],
    }),
  );
  add('tool-execute-error', 'a tool whose execute throws: tool-output-error with the error text', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: {
        weather: weatherTool(ctx.sdk, {
          execute: async () => {
            throw new Error('weather service unavailable');
          },
        }),
      },
      steps: [[...m.start(), ...m.toolCall('call-1', 'weather', ['{"city":"Lima"}']), m.finish('tool-calls')]],
    }),
  );
  add('tool-invalid-input', 'the model calls a tool with input its schema rejects: tool-input-error', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { weather: weatherTool(ctx.sdk) },
      steps: [[...m.start(), ...m.toolCall('call-1', 'weather', ['{"city":', '42}']), m.finish('tool-calls')]],
    }),
  );
  add('tool-unknown-name', 'the model calls a tool the server does not have', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { weather: weatherTool(ctx.sdk) },
      steps: [[...m.start(), ...m.toolCall('call-1', 'forecast', ['{"days":3}']), m.finish('tool-calls')]],
    }),
  );
  add('tool-client-side', 'a tool without execute: the stream ends with the input available for the client', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { askConfirmation: ctx.sdk.tool({ description: 'Ask the user', inputSchema: z.object({ question: z.string() }) }) },
      steps: [[...m.start(), ...m.text('txt-1', ['Let me ask.']), ...m.toolCall('call-1', 'askConfirmation', ['{"question":"Proceed?"}']), m.finish('tool-calls')]],
    }),
  );
  add('tool-preliminary', 'a tool whose execute is an async generator: preliminary outputs, then the final one', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: {
        progress: ctx.sdk.tool({
          description: 'Report progress',
          inputSchema: z.object({ job: z.string() }),
          async *execute({ job }) {
            yield { job, status: 'running', percent: 0 };
            yield { job, status: 'running', percent: 50 };
            yield { job, status: 'done', percent: 100 };
          },
        }),
      },
      steps: [[...m.start(), ...m.toolCall('call-1', 'progress', ['{"job":"build"}']), m.finish('tool-calls')]],
    }),
  );
  add('sources', 'url and document sources (sendSources: true) around text', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [
        [
          ...m.start(),
          m.sourceURL('src-1', 'https://example.com/a', 'Example A'),
          ...m.text('txt-1', ['See the sources.']),
          m.sourceDocument('src-2', 'application/pdf', 'Spec', 'spec.pdf'),
          m.sourceURL('src-3', 'https://example.com/b'),
          m.finish('stop'),
        ],
      ],
      response: { sendSources: true },
    }),
  );
  add('file', 'a file part (PNG as a data URL) between text', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.text('txt-1', ['Here is the image:']), m.file('image/png', PNG), ...m.text('txt-2', ['Done.']), m.finish('stop')]],
    }),
  );
  add('metadata', 'message metadata on start and finish and after a text part (messageMetadata callback)', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.text('txt-1', ['Hi']), m.finish('stop')]],
      response: {
        messageMetadata: ({ part }) => {
          if (part.type === 'start') return { model: 'mock', createdAt: 0, nested: { a: 1, list: [1, 2] } };
          if (part.type === 'text-end') return { nested: { b: 2, list: [3] } };
          if (part.type === 'finish') return { totalTokens: 30, finishReason: part.finishReason };
          return undefined;
        },
      },
    }),
  );
  add('model-error', 'the model streams an error part: an error chunk with the default error text', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.text('txt-1', ['Partial']), { type: 'error', error: new Error('upstream rate limit') }, m.finish('error')]],
    }),
  );
  add('model-error-masked', 'the model streams an error part; onError masks it', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.text('txt-1', ['Partial']), { type: 'error', error: new Error('secret detail') }, m.finish('error')]],
      response: { onError: (e) => `masked: ${e instanceof Error ? e.constructor.name : typeof e}` },
    }),
  );
  add('model-throws', 'the model call itself throws (doStream rejects)', ST, (ctx) =>
    streamTextResponse(ctx, { steps: [new Error('connection refused')] }),
  );
  add('multi-step', 'three steps: reasoning and a tool call, two tool calls, then text; step-start and finish-step between', ST, (ctx) =>
    streamTextResponse(ctx, {
      tools: { weather: weatherTool(ctx.sdk) },
      stopSteps: 3,
      steps: [
        [...m.start(), ...m.reasoning('rsn-1', ['Need weather.']), ...m.toolCall('call-1', 'weather', ['{"city":"Tokyo"}']), m.finish('tool-calls')],
        [
          ...m.start(),
          ...m.text('txt-2', ['Checking two more.']),
          ...m.toolCall('call-2', 'weather', ['{"city":"Seoul"}']),
          ...m.toolCall('call-3', 'weather', ['{"city":"Taipei"}']),
          m.finish('tool-calls'),
        ],
        [...m.start(), ...m.text('txt-3', ['All three are 21 C.']), m.finish('stop')],
      ],
    }),
  );
  add('no-start-no-finish', 'sendStart: false and sendFinish: false: no start or finish chunk', ST, (ctx) =>
    streamTextResponse(ctx, {
      steps: [[...m.start(), ...m.text('txt-1', ['Bare']), m.finish('stop')]],
      response: { sendStart: false, sendFinish: false },
    }),
  );
  add('long-run', 'a long run: 120 reasoning deltas, a tool input in 200 deltas, its output, then 300 text deltas', ST, (ctx) => {
    const words = (n, w) => Array.from({ length: n }, (_, i) => `${w}${i} `);
    const input = JSON.stringify({ city: 'Berlin', notes: Array.from({ length: 40 }, (_, i) => `note ${i} caf\u00e9 \u00fc`) });
    const deltas = [];
    for (let i = 0; i < 200; i++) deltas.push(input.slice(Math.floor((i * input.length) / 200), Math.floor(((i + 1) * input.length) / 200)));
    return streamTextResponse(ctx, {
      tools: { weather: ctx.sdk.tool({ description: 'w', inputSchema: z.object({ city: z.string(), notes: z.array(z.string()) }), execute: async ({ city }) => ({ city, ok: true }) }) },
      stopSteps: 2,
      steps: [
        [...m.start(), ...m.reasoning('rsn-1', words(120, 'thought')), ...m.toolCall('call-1', 'weather', deltas), m.finish('tool-calls')],
        [...m.start(), ...m.text('txt-2', words(300, 'word')), m.finish('stop')],
      ],
    });
  });

  if (major >= 6) {
    add('approval', 'a tool with needsApproval: the stream ends with a tool-approval-request', ST, (ctx) =>
      streamTextResponse(ctx, {
        tools: { deleteFile: ctx.sdk.tool({ description: 'Delete a file', inputSchema: z.object({ path: z.string() }), needsApproval: true, execute: async ({ path }) => ({ deleted: path }) }) },
        steps: [[...m.start(), ...m.toolCall('call-1', 'deleteFile', ['{"path":', '"/tmp/x"}']), m.finish('tool-calls')]],
      }),
    );
  }
  if (major >= 7) {
    add('keep-alive', 'keepAliveMs set: the body opens with the ": stream-open" comment (no keep-alive fires in so short a run)', ST, (ctx) =>
      streamTextResponse(ctx, { steps: [[...m.start(), ...m.text('txt-1', ['Hi']), m.finish('stop')]], response: { keepAliveMs: 600000 } }),
    );
    add('reasoning-file-custom', 'the model streams a reasoning file and custom content (ai 7 chunk types)', ST, (ctx) =>
      streamTextResponse(ctx, {
        steps: [
          [
            ...m.start(),
            { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
            { type: 'custom', kind: 'mock.compaction', providerMetadata: { mock: { itemId: 'cmp-1' } } },
            ...m.text('txt-1', ['After compaction.']),
            m.finish('stop'),
          ],
        ],
      }),
    );
    add('finish-interrupted', 'the model finishes with the ai 7 finish reason interrupted', ST, (ctx) =>
      streamTextResponse(ctx, { steps: [[...m.start(), ...m.text('txt-1', ['Stopped']), m.finish('interrupted')]] }),
    );
  }

  // createUIMessageStream with a writer.
  add('writer-data-parts', 'data parts: one with an id written three times (replaced in place), one without id, one transient', WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      writer.write({ type: 'start', messageId: 'msg-w1' });
      writer.write({ type: 'data-weather', id: 'w1', data: { city: 'SF', status: 'loading' } });
      writer.write({ type: 'data-status', data: { text: 'thinking' }, transient: true });
      writer.write({ type: 'text-start', id: 'txt-1' });
      writer.write({ type: 'text-delta', id: 'txt-1', delta: 'Fetching weather' });
      writer.write({ type: 'data-weather', id: 'w1', data: { city: 'SF', status: 'partial', temperature: 18 } });
      writer.write({ type: 'text-end', id: 'txt-1' });
      writer.write({ type: 'data-log', data: ['no id', 1, null] });
      writer.write({ type: 'data-weather', id: 'w2', data: { city: 'LA' } });
      writer.write({ type: 'data-weather', id: 'w1', data: { city: 'SF', status: 'done', temperature: 19 } });
      writer.write({ type: 'data-status', id: 'w1', data: 'same id, other type' });
      writer.write({ type: 'finish' });
    }),
  );
  add('writer-merge-streamtext', 'a writer writes a data part, then merges streamText\'s UI message stream', WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      writer.write({ type: 'data-context', id: 'ctx-1', data: { user: 'u1' } });
      const { sdk, test } = ctx;
      const result = sdk.streamText({
        model: mockModel(major, test, [[...m.start(), ...m.text('txt-1', ['Merged', ' text']), m.finish('stop')]]),
        prompt: 'Hello',
        _internal: { generateId: counter('gen-'), currentDate: () => new Date(0), now: () => 0 },
    onError: () => {}, // streamText logs stream errors to the console unless told
      });
      writer.merge(result.toUIMessageStream());
    }),
  );
  add('writer-execute-throws', 'execute throws after a chunk: an error chunk with the default onError text', WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      writer.write({ type: 'start', messageId: 'msg-w1' });
      writer.write({ type: 'text-start', id: 'txt-1' });
      writer.write({ type: 'text-delta', id: 'txt-1', delta: 'Before the error' });
      throw new Error('database timeout');
    }),
  );
  add('writer-execute-throws-masked', 'execute throws; onError masks the error text', WS, (ctx) =>
    writerResponse(
      ctx,
      ({ writer }) => {
        writer.write({ type: 'start', messageId: 'msg-w1' });
        throw new Error('secret');
      },
      { onError: () => 'Something went wrong (masked).' },
    ),
  );
  add('writer-error-chunk', 'the writer writes an error chunk mid-stream, then goes on', WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      writer.write({ type: 'start', messageId: 'msg-w1' });
      writer.write({ type: 'text-start', id: 'txt-1' });
      writer.write({ type: 'text-delta', id: 'txt-1', delta: 'one' });
      writer.write({ type: 'error', errorText: 'recoverable hiccup' });
      writer.write({ type: 'text-delta', id: 'txt-1', delta: ' two' });
      writer.write({ type: 'text-end', id: 'txt-1' });
      writer.write({ type: 'finish' });
    }),
  );
  add('writer-every-chunk', `every chunk type the ai ${major} schema knows, as a server writes them`, WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      for (const chunk of everyChunk(major)) writer.write(chunk);
    }),
  );
  add('writer-tool-states', 'tool parts through their states by hand: static and dynamic, input errors, output errors, provider-executed, preliminary', WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      for (const chunk of toolStates(major)) writer.write(chunk);
    }),
  );
  add('writer-partial-json', 'tool input deltas that stop in every state of the partial JSON repair, \\u escapes cut in the middle', WS, (ctx) =>
    writerResponse(ctx, ({ writer }) => {
      for (const chunk of partialJSON()) writer.write(chunk);
    }),
  );
  if (major >= 7) {
    add('writer-reset-step', 'a step whose parts a reset-step removes, then the step again', WS, (ctx) =>
      writerResponse(ctx, ({ writer }) => {
        writer.write({ type: 'start', messageId: 'msg-w1' });
        writer.write({ type: 'start-step' });
        writer.write({ type: 'text-start', id: 'txt-1' });
        writer.write({ type: 'text-delta', id: 'txt-1', delta: 'First try' });
        writer.write({ type: 'text-end', id: 'txt-1' });
        writer.write({ type: 'finish-step' });
        writer.write({ type: 'start-step' });
        writer.write({ type: 'text-start', id: 'txt-2' });
        writer.write({ type: 'text-delta', id: 'txt-2', delta: 'Discarded' });
        writer.write({ type: 'reset-step' });
        writer.write({ type: 'text-start', id: 'txt-3' });
        writer.write({ type: 'text-delta', id: 'txt-3', delta: 'Second try' });
        writer.write({ type: 'text-end', id: 'txt-3' });
        writer.write({ type: 'finish-step' });
        writer.write({ type: 'finish', finishReason: 'stop' });
      }),
    );
  }

  // Continuations: the client sends the message again after it changed it.
  add(
    'continue-client-tool',
    'after tool-client-side: the client adds the tool output (addToolOutput) and sends again; the server continues the same assistant message',
    ST,
    (ctx, message) =>
      streamTextResponse(ctx, {
        tools: { askConfirmation: ctx.sdk.tool({ description: 'Ask the user', inputSchema: z.object({ question: z.string() }) }) },
        steps: [[...m.start(), ...m.text('txt-2', ['Confirmed, proceeding.']), m.finish('stop')]],
        response: { originalMessages: [userMessage(), message] },
        uiMessages: [userMessage(), message],
      }),
    {
      continues: 'tool-client-side',
      change: (message) => addToolOutput(message, 'call-1', { confirmed: true }),
    },
  );
  if (major >= 6) {
    add(
      'continue-approval',
      'after approval: the client approves (addToolApprovalResponse) and sends again; the server runs the tool and continues',
      ST,
      (ctx, message) =>
        streamTextResponse(ctx, {
          tools: { deleteFile: ctx.sdk.tool({ description: 'Delete a file', inputSchema: z.object({ path: z.string() }), needsApproval: true, execute: async ({ path }) => ({ deleted: path }) }) },
          steps: [[...m.start(), ...m.text('txt-2', ['Deleted.']), m.finish('stop')]],
          response: { originalMessages: [userMessage(), message] },
          uiMessages: [userMessage(), message],
        }),
      { continues: 'approval', change: (message) => addToolApprovalResponse(message, true) },
    );
    add(
      'continue-approval-denied',
      'after approval: the client denies it with a reason and sends again; the server reports the denial and continues',
      ST,
      (ctx, message) =>
        streamTextResponse(ctx, {
          tools: { deleteFile: ctx.sdk.tool({ description: 'Delete a file', inputSchema: z.object({ path: z.string() }), needsApproval: true, execute: async ({ path }) => ({ deleted: path }) }) },
          steps: [[...m.start(), ...m.text('txt-2', ['Not deleted.']), m.finish('stop')]],
          response: { originalMessages: [userMessage(), message] },
          uiMessages: [userMessage(), message],
        }),
      { continues: 'approval', change: (message) => addToolApprovalResponse(message, false, 'not now') },
    );
  }
  return cases;
}

export function userMessage() {
  return { id: 'user-1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] };
}

// addToolOutput changes the tool part as the SDK's Chat.addToolOutput does
// ({...part, state, output, errorText}).
function addToolOutput(message, toolCallId, output) {
  return {
    ...message,
    parts: message.parts.map((p) =>
      (p.type.startsWith('tool-') || p.type === 'dynamic-tool') && p.toolCallId === toolCallId
        ? { ...p, state: 'output-available', output, errorText: undefined }
        : p,
    ),
  };
}

// addToolApprovalResponse changes the part as the SDK's
// Chat.addToolApprovalResponse does.
function addToolApprovalResponse(message, approved, reason) {
  return {
    ...message,
    parts: message.parts.map((p) =>
      p.state === 'approval-requested'
        ? { ...p, state: 'approval-responded', approval: { ...p.approval, id: p.approval.id, approved, reason } }
        : p,
    ),
  };
}

// everyChunk lists one of each chunk type a major's schema knows, with
// its optional fields, in an order the client reads without throwing.
function everyChunk(major) {
  const pm = { mock: { k: 'v' } };
  const c = [
    { type: 'start', messageId: 'msg-e1', messageMetadata: { a: 1 } },
    { type: 'start-step' },
    { type: 'reasoning-start', id: 'rsn-1', providerMetadata: pm },
    { type: 'reasoning-delta', id: 'rsn-1', delta: 'why', providerMetadata: pm },
    { type: 'reasoning-end', id: 'rsn-1', providerMetadata: pm },
    { type: 'text-start', id: 'txt-1', providerMetadata: pm },
    { type: 'text-delta', id: 'txt-1', delta: 'text', providerMetadata: pm },
    { type: 'text-end', id: 'txt-1', providerMetadata: pm },
    { type: 'tool-input-start', toolCallId: 'call-1', toolName: 'weather', providerExecuted: false, dynamic: false },
    { type: 'tool-input-delta', toolCallId: 'call-1', inputTextDelta: '{"city":"Rome"}' },
    { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'weather', input: { city: 'Rome' }, providerExecuted: false, providerMetadata: pm, dynamic: false },
    { type: 'tool-output-available', toolCallId: 'call-1', output: { t: 1 }, providerExecuted: false, dynamic: false, preliminary: true },
    { type: 'tool-output-available', toolCallId: 'call-1', output: { t: 2 } },
    { type: 'tool-input-available', toolCallId: 'call-2', toolName: 'weather', input: { city: 'Oslo' } },
    { type: 'tool-output-error', toolCallId: 'call-2', errorText: 'failed', providerExecuted: false, dynamic: false },
    { type: 'tool-input-error', toolCallId: 'call-3', toolName: 'weather', input: '{"city":', errorText: 'bad input', providerExecuted: false, providerMetadata: pm, dynamic: false },
    { type: 'source-url', sourceId: 'src-1', url: 'https://example.com', title: 'Example', providerMetadata: pm },
    { type: 'source-document', sourceId: 'src-2', mediaType: 'text/plain', title: 'Notes', filename: 'notes.txt', providerMetadata: pm },
    { type: 'file', url: `data:image/png;base64,${PNG}`, mediaType: 'image/png', providerMetadata: pm },
    { type: 'data-item', id: 'd1', data: { n: 1 }, transient: false },
    { type: 'message-metadata', messageMetadata: { b: 2 } },
  ];
  if (major >= 6) {
    c.push(
      { type: 'tool-input-start', toolCallId: 'call-4', toolName: 'deleteFile', title: 'Delete', providerMetadata: pm, toolMetadata: { risk: 'high' } },
      { type: 'tool-input-available', toolCallId: 'call-4', toolName: 'deleteFile', input: { path: '/x' }, title: 'Delete', toolMetadata: { risk: 'high' } },
      { type: 'tool-approval-request', approvalId: 'appr-1', toolCallId: 'call-4' },
      { type: 'tool-output-denied', toolCallId: 'call-4' },
      { type: 'tool-input-available', toolCallId: 'call-5', toolName: 'deleteFile', input: { path: '/y' } },
      { type: 'tool-approval-request', approvalId: 'appr-2', toolCallId: 'call-5' },
    );
  }
  if (major >= 7) {
    c.push(
      { type: 'tool-approval-response', approvalId: 'appr-2', approved: true, reason: 'fine' },
      { type: 'tool-output-available', toolCallId: 'call-5', output: { deleted: '/y' }, providerMetadata: pm, toolMetadata: { risk: 'high' } },
      { type: 'reasoning-file', url: `data:image/png;base64,${PNG}`, mediaType: 'image/png', providerMetadata: pm },
      { type: 'custom', kind: 'mock.marker', providerMetadata: pm },
    );
  }
  c.push({ type: 'finish-step' });
  c.push(major >= 6 ? { type: 'abort', reason: 'user stopped' } : { type: 'abort' });
  c.push({ type: 'finish', finishReason: 'stop', messageMetadata: { c: 3 } });
  return c;
}

// toolStates drives tool parts through their states by hand.
function toolStates(major) {
  const c = [
    { type: 'start', messageId: 'msg-t1' },
    { type: 'start-step' },
    // static, streamed, then output
    { type: 'tool-input-start', toolCallId: 's1', toolName: 'search' },
    { type: 'tool-input-delta', toolCallId: 's1', inputTextDelta: '{"q":"go' },
    { type: 'tool-input-delta', toolCallId: 's1', inputTextDelta: ' json"' },
    { type: 'tool-input-available', toolCallId: 's1', toolName: 'search', input: { q: 'go json' } },
    { type: 'tool-output-available', toolCallId: 's1', output: [{ title: 'r1' }] },
    // dynamic, streamed, then output error
    { type: 'tool-input-start', toolCallId: 'd1', toolName: 'mcp_fetch', dynamic: true },
    { type: 'tool-input-delta', toolCallId: 'd1', inputTextDelta: '{"url":"https://exa' },
    { type: 'tool-input-available', toolCallId: 'd1', toolName: 'mcp_fetch', input: { url: 'https://example.com' }, dynamic: true },
    { type: 'tool-output-error', toolCallId: 'd1', errorText: 'fetch failed', dynamic: true },
    // provider-executed
    { type: 'tool-input-available', toolCallId: 'p1', toolName: 'web_search', input: { query: 'x' }, providerExecuted: true },
    { type: 'tool-output-available', toolCallId: 'p1', output: { hits: 3 }, providerExecuted: true },
    // static input error after a start, dynamic input error without a start
    { type: 'tool-input-start', toolCallId: 's2', toolName: 'search' },
    { type: 'tool-input-error', toolCallId: 's2', toolName: 'search', input: '{"q":', errorText: 'Invalid JSON' },
    { type: 'tool-input-error', toolCallId: 'd2', toolName: 'mcp_fetch', input: { url: 5 }, errorText: 'url must be a string', dynamic: true },
    // preliminary outputs
    { type: 'tool-input-available', toolCallId: 's3', toolName: 'build', input: {} },
    { type: 'tool-output-available', toolCallId: 's3', output: { percent: 10 }, preliminary: true },
    { type: 'tool-output-available', toolCallId: 's3', output: { percent: 90 }, preliminary: true },
    { type: 'tool-output-available', toolCallId: 's3', output: { percent: 100 } },
    { type: 'finish-step' },
    { type: 'start-step' },
    // an output in a later step for a call of the earlier step
    { type: 'tool-input-available', toolCallId: 's4', toolName: 'search', input: { q: 'later' } },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'tool-output-available', toolCallId: 's4', output: 'late output' },
    { type: 'finish-step' },
    { type: 'finish' },
  ];
  return c;
}

// partialJSON streams one tool input per cut of a JSON text, each stopped
// at a place where the SDK's fixJson has to close something.
function partialJSON() {
  const cuts = [
    '{"a":',
    '{"a":"x',
    '{"a":"x\\',
    '{"a":"\\u00',
    '{"a":"\\u00e',
    '{"a":"\\u00e9',
    '{"a":[1,2',
    '{"a":[1,2,',
    '{"a":-',
    '{"a":1.',
    '{"a":1e',
    '{"a":tr',
    '{"a":nu',
    '{"a":{"b":{"c":fa',
    '{"a":"ok","',
    '[',
    '"str',
    '  ',
    '{"__proto__":{"x":1}}',
    '{"a":1}}',
  ];
  const c = [{ type: 'start', messageId: 'msg-p1' }, { type: 'start-step' }];
  cuts.forEach((text, i) => {
    const id = `pj${i + 1}`;
    c.push({ type: 'tool-input-start', toolCallId: id, toolName: 'probe' });
    // each text in two deltas, cut at its middle
    const half = Math.floor(text.length / 2);
    c.push({ type: 'tool-input-delta', toolCallId: id, inputTextDelta: text.slice(0, half) });
    c.push({ type: 'tool-input-delta', toolCallId: id, inputTextDelta: text.slice(half) });
  });
  c.push({ type: 'finish-step' }, { type: 'finish' });
  return c;
}
