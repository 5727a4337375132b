// scenarios.mjs lists the scenarios: a contract, the messages the chat
// holds at the start, the steps (send a message, resume) and the answers
// to the requests the client sends, in order, each with its status,
// headers, body bytes and how the body ends (fetch.mjs).
//
// Same page: the user sends a message, the answer breaks inside a part,
// and the chat resumes on the same Chat instance (a resumeStream() call,
// or the page becoming visible). Reload: a new page whose chat holds what
// the server persisted while streaming (the user message alone, or a
// given list) resumes on mount.

import { cutInside, sse, uiStream, v4, v4Stream, withMessageId, replaceText } from './streams.mjs';

const CHAT = 'chat-1';
const RUN = 'run-1';
const USER = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
const USER_V4 = { id: 'u1', role: 'user', content: 'Hi', parts: [{ type: 'text', text: 'Hi' }] };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' };
const V4_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' };
const JSON_HEADERS = { 'content-type': 'application/json' };

// The streams the scenarios cut and replay (corpus/ui, written by ai
// 5.0.277's server; corpus/streams, by ai 4.3.19's).
const TEXT = uiStream('streams/5/text'); // start msg-1, start-step, text-start, 3 deltas, text-end, finish-step, finish
const REASONING = uiStream('streams/5/reasoning');
const TOOL = uiStream('streams/5/tool-execute'); // a streamed tool input and its output, then a text step
const V4_RUN = v4Stream('valid/agent-run-service-stream');

const ok = (body, end = 'eof', headers = SSE_HEADERS) => ({ status: 200, headers, body, end });
const status = (code, text = '', headers = text === '' ? {} : JSON_HEADERS) => ({ status: code, headers, body: Buffer.from(text), end: 'eof' });
const cut = (chunks, k, headers = SSE_HEADERS) => ({ status: 200, headers, body: cutInside(sse(chunks), k, 'sse'), end: 'cut' });
const NOT_FOUND = '{"error":{"code":"not_found","message":"no stream for this chat"}}';
const EVICTED = '{"error":{"code":"stream_evicted","message":"the stream was dropped after 3600 s"}}';

// A partial assistant message as a server persists it while it streams
// TEXT (after "Hello"), and the same as it ended.
const PARTIAL = { id: 'msg-1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'Hello', state: 'streaming' }] };
const OLD = { id: 'msg-1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'An older answer.', state: 'done' }] };
const USER2 = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And now?' }] };

// aiSDK lists the ai-sdk scenarios (DefaultChatTransport, useChat).
function aiSDK() {
  const same = (name, description, responses, steps = [{ resume: 'call' }]) => ({
    name, description, contract: 'ai-sdk', chatId: CHAT, messages: [], steps: [{ send: USER }, ...steps], responses,
  });
  const reload = (name, description, messages, responses) => ({
    name, description, contract: 'ai-sdk', chatId: CHAT, messages, steps: [{ resume: 'call' }], responses,
  });
  const cutText = cut(TEXT, 4); // after "Hello", inside the ", " delta
  const rest = TEXT.slice(4); // from the ", " delta on: a continuation mid-part
  return [
    same('text-cut-replay', 'cut inside a text part; resumeStream() on the same page; the whole stream replayed, the same messageId', [cutText, ok(sse(TEXT))]),
    same('text-cut-replay-visible', 'as text-cut-replay, resumed by the page becoming visible (useChat({resume: true})), not by a call', [cutText, ok(sse(TEXT))], [{ resume: 'visible' }]),
    same('text-cut-replay-other-id', 'cut inside a text part; a replay whose start has another messageId', [cutText, ok(sse(withMessageId(TEXT, 'msg-2')))]),
    same('text-cut-replay-no-id', 'cut inside a text part; a replay whose start has no messageId', [cutText, ok(sse(withMessageId(TEXT, undefined)))]),
    same('text-cut-continuation', 'cut inside a text part; the resume sends only the chunks after the cut: no start, a delta of the open part first', [cutText, ok(sse(rest))]),
    same('text-cut-start-then-midpart', 'cut inside a text part; the resume sends start (the same messageId) and then the chunks after the cut, mid-part', [cutText, ok(sse([TEXT[0], ...rest]))]),
    same('text-cut-replay-altered', 'cut inside a text part; the replay differs from what was sent ("Hello" became "Howdy")', [cutText, ok(sse(replaceText(TEXT, 'Hello', 'Howdy')))]),
    same('text-cut-replay-short', 'cut inside a text part; the replay ends early but whole: text-end, finish-step and finish after "Hello"', [cutText, ok(sse([...TEXT.slice(0, 4), TEXT[6], TEXT[7], TEXT[8]]))]),
    same('text-cut-replay-no-finish', 'cut inside a text part; the replay ends with [DONE] and no finish chunk', [cutText, ok(sse(TEXT.slice(0, 8)))]),
    same('text-cut-replay-cut-again', 'cut inside a text part; the replay breaks again inside text-end; a second resumeStream() gets the whole replay', [cutText, cut(TEXT, 6), ok(sse(TEXT))], [{ resume: 'call' }, { resume: 'call' }]),
    same('text-cut-replay-open', 'cut inside a text part; the replay sends its start and then nothing, the connection open', [cutText, ok(sse(TEXT.slice(0, 1), { done: false }), 'open')]),
    same('text-cut-204', 'cut inside a text part; the resume is answered 204 (no active stream)', [cutText, status(204)]),
    same('text-cut-404', 'cut inside a text part; the resume is answered 404 with a JSON error', [cutText, status(404, NOT_FOUND)]),
    same('text-cut-410', 'cut inside a text part; the resume is answered 410 Gone: the stream was evicted', [cutText, status(410, EVICTED)]),
    same('text-cut-empty-200', 'cut inside a text part; the resume is answered 200 with an empty body', [cutText, ok(Buffer.alloc(0))]),
    same('text-cut-205', 'cut inside a text part; the resume is answered 205: an OK answer fetch gives no body', [cutText, status(205)]),
    same('post-500', 'the POST is answered 500 with a JSON error; the resume is answered 204', [status(500, '{"error":{"code":"internal","message":"the model failed"}}'), status(204)]),
    same('text-cut-refused', 'cut inside a text part; the resume gets no response (fetch rejects)', [cutText, { status: 0, headers: {}, body: Buffer.alloc(0), end: 'refused' }]),
    same('reasoning-cut-replay', 'cut inside a reasoning part; the whole stream replayed', [cut(REASONING, 4), ok(sse(REASONING))]),
    same('tool-input-cut-replay', 'cut inside a streamed tool input; the whole stream replayed', [cut(TOOL, 4), ok(sse(TOOL))]),
    same('tool-input-cut-continuation', 'cut inside a streamed tool input; the resume sends only the chunks after the cut', [cut(TOOL, 4), ok(sse(TOOL.slice(4)))]),
    same('steps-cut-replay', 'cut between two steps (inside the second start-step); the whole stream replayed', [cut(TOOL, 9), ok(sse(TOOL))]),
    reload('reload-user-replay', 'a new page holding the user message; the whole stream replayed', [USER], [ok(sse(TEXT))]),
    reload('reload-partial-replay', 'a new page holding the partial answer the server persisted; the whole stream replayed, the same messageId', [USER, PARTIAL], [ok(sse(TEXT))]),
    reload('reload-partial-replay-other-id', 'a new page holding the partial answer; a replay whose start has another messageId', [USER, PARTIAL], [ok(sse(withMessageId(TEXT, 'msg-2')))]),
    reload('reload-partial-replay-no-id', 'a new page holding the partial answer; a replay whose start has no messageId', [USER, PARTIAL], [ok(sse(withMessageId(TEXT, undefined)))]),
    reload('reload-partial-continuation', 'a new page holding the partial answer; the resume sends only the chunks after the cut, mid-part', [USER, PARTIAL], [ok(sse(rest))]),
    reload('reload-earlier-message', 'a new page holding an answer, then a second user message; a replay of the answer\'s stream (its messageId)', [USER, OLD, USER2], [ok(sse(TEXT))]),
    reload(
      'reload-tool-input-streaming',
      'a new page holding a partial answer whose tool input is still streaming; the resume sends the rest of the input and the output',
      [USER, { id: 'msg-1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'tool-weather', toolCallId: 'call-1', state: 'input-streaming', rawInput: '{"ci' }] }],
      [ok(sse(TOOL.slice(4)))],
    ),
    reload(
      'reload-approval-responded',
      'a new page holding an answer whose tool call the user approved; the resume sends the tool output',
      [USER, { id: 'msg-1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'tool-weather', toolCallId: 'call-1', state: 'approval-responded', input: { city: 'Berlin' }, approval: { id: 'approval-1', approved: true } }] }],
      [ok(sse([TOOL[7], TOOL[8], TOOL[14]]))],
    ),
    reload(
      'reload-provider-executed',
      'a new page holding an answer with a provider-executed tool call under way; the resume sends its output',
      [USER, { id: 'msg-1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'tool-weather', toolCallId: 'call-1', state: 'input-available', input: { city: 'Berlin' }, providerExecuted: true }] }],
      [ok(sse([{ ...TOOL[7], providerExecuted: true }, TOOL[8], TOOL[14]]))],
    ),
    reload('reload-204', 'a new page; the resume is answered 204 (no active stream)', [USER], [status(204)]),
    reload('reload-205', 'a new page; the resume is answered 205: an OK answer fetch gives no body', [USER], [status(205)]),
    reload('reload-404', 'a new page; the resume is answered 404 with a JSON error', [USER], [status(404, NOT_FOUND)]),
    reload('reload-410', 'a new page; the resume is answered 410 Gone: the stream was evicted', [USER], [status(410, EVICTED)]),
    reload('reload-empty-200', 'a new page; the resume is answered 200 with an empty body', [USER], [ok(Buffer.alloc(0))]),
    reload('reload-replay-open', 'a new page; the replay sends its start and then nothing, the connection open', [USER], [ok(sse(TEXT.slice(0, 1), { done: false }), 'open')]),
  ];
}

// workflow lists the workflow scenarios (WorkflowChatTransport). Its
// server's start chunk carries no messageId (to-ui-message-chunk.ts).
function workflow() {
  const text = withMessageId(TEXT, undefined);
  const tool = withMessageId(TOOL, undefined);
  const run = { ...SSE_HEADERS, 'x-workflow-run-id': RUN };
  const same = (name, description, responses, steps = []) => ({
    name, description, contract: 'workflow', chatId: CHAT, messages: [], steps: [{ send: USER }, ...steps], responses,
  });
  const reload = (name, description, responses, startIndex, messages = [USER]) => ({
    name, description, contract: 'workflow', chatId: CHAT, messages, steps: [{ resume: 'call' }], responses, startIndex,
  });
  const post = cut(text, 4, run); // 4 chunks read, the fifth cut
  const bad = { raw: 'data: {"type":"text-delta","id":"txt-1","delta":\n\n' };
  return [
    same('wf-text-cut-resume', 'the POST breaks inside a text part after 4 chunks; the GET from startIndex=4 sends the rest', [post, ok(sse(text.slice(4)))]),
    same('wf-text-cut-replay', 'the POST breaks inside a text part; the GET replays the whole stream (a server that ignores startIndex)', [post, ok(sse(text))]),
    same('wf-text-cut-204', 'the POST breaks inside a text part; the GET is answered 204', [post, status(204)]),
    same('wf-text-cut-404', 'the POST breaks inside a text part; the GET is answered 404', [post, status(404, NOT_FOUND)]),
    same('wf-text-cut-410', 'the POST breaks inside a text part; the GET is answered 410 Gone (evicted)', [post, status(410, EVICTED)]),
    same('wf-text-cut-empty-then-rest', 'the POST breaks; the first GET ends cleanly with no chunk; the next GET sends the rest', [post, ok(Buffer.alloc(0)), ok(sse(text.slice(4)))]),
    same('wf-text-cut-no-finish', 'the POST breaks; the GET sends the rest but finish, and [DONE]; the next GET sends finish', [post, ok(sse(text.slice(4, 8))), ok(sse(text.slice(8)))]),
    same('wf-text-cut-three-times', 'the POST breaks; three GETs in a row break too', [post, cut(text, 5), cut(text, 5), cut(text, 5)]),
    same('wf-text-cut-bad-event', 'the POST breaks; three GETs in a row send an event that is not JSON', [post, ok(sse([bad])), ok(sse([bad])), ok(sse([bad]))]),
    same('wf-text-cut-empty-forever', 'the POST breaks; GETs end cleanly with no chunk, again and again', [post, ok(Buffer.alloc(0)), ok(Buffer.alloc(0))]),
    same('wf-text-cut-refused-visible', 'the POST breaks inside a text part; the GET gets no response (fetch rejects: a disconnect); the page becomes visible: reconnectToStream with the chat id from startIndex 0 replays the whole stream into the kept state', [post, { status: 0, headers: {}, body: Buffer.alloc(0), end: 'refused' }, ok(sse(text))], [{ resume: 'visible' }]),
    same('wf-text-cut-bad-then-rest', 'the POST breaks; the first GET sends an event that is not JSON, the second the rest', [post, ok(sse([bad])), ok(sse(text.slice(4)))]),
    same('wf-no-run-id', 'the POST is answered without the x-workflow-run-id header', [ok(sse(text))]),
    same('wf-tool-input-cut-resume', 'the POST breaks inside a streamed tool input; the GET sends the rest', [cut(tool, 4, run), ok(sse(tool.slice(4)))]),
    reload('wf-reload', 'a new page holding the user message; reconnectToStream with the chat id from startIndex 0', [ok(sse(text))], 0),
    reload('wf-reload-partial', 'a new page holding the partial answer the server persisted; the whole stream replayed (its start has no messageId: the transport\'s server sends none)', [ok(sse(text))], 0, [USER, PARTIAL]),
    reload('wf-reload-tail', 'a new page; reconnectToStream from the tail (startIndex -5), the tail index in the header', [{ ...ok(sse(text.slice(4))), headers: { ...SSE_HEADERS, 'x-workflow-stream-tail-index': '8' } }], -5),
    reload('wf-reload-tail-no-header', 'a new page; reconnectToStream from the tail (startIndex -5) without the tail index header; the answer breaks; the retry', [cut(text.slice(4), 2), ok(sse(text))], -5),
    reload('wf-reload-tail-tool', 'a new page; reconnectToStream from the tail (startIndex -12) lands inside a streamed tool input: the orphan filter drops its deltas', [{ ...ok(sse(tool.slice(4))), headers: { ...SSE_HEADERS, 'x-workflow-stream-tail-index': '15' } }], -12),
    reload('wf-reload-204', 'a new page; the GET is answered 204', [status(204)], 0),
  ];
}

// aiSDK4 lists the ai-sdk-4 scenarios (experimental_resume).
function aiSDK4() {
  const reload = (name, description, messages, responses) => ({
    name, description, contract: 'ai-sdk-4', chatId: CHAT, messages, steps: [{ resume: 'call' }], responses,
  });
  const body = v4(V4_RUN);
  const partial = { id: 'msg-1', role: 'assistant', content: 'Creating the project.', parts: [{ type: 'step-start' }, { type: 'text', text: 'Creating the project.' }] };
  const withTool = {
    id: 'msg-1', role: 'assistant', content: 'Creating the project.',
    parts: [{ type: 'step-start' }, { type: 'text', text: 'Creating the project.' }, { type: 'tool-invocation', toolInvocation: { state: 'call', step: 0, toolCallId: 'call_1', toolName: 'writeFile', args: { path: 'package.json' } } }],
    toolInvocations: [{ state: 'call', step: 0, toolCallId: 'call_1', toolName: 'writeFile', args: { path: 'package.json' } }],
  };
  return [
    reload('v4-reload-user-replay', 'a new page holding the user message; the whole stream replayed', [USER_V4], [ok(body, 'eof', V4_HEADERS)]),
    reload('v4-reload-partial-replay', 'a new page holding the partial answer the server persisted; the whole stream replayed', [USER_V4, partial], [ok(body, 'eof', V4_HEADERS)]),
    reload('v4-reload-partial-tool-replay', 'a new page holding a partial answer with a tool call; the whole stream replayed', [USER_V4, withTool], [ok(body, 'eof', V4_HEADERS)]),
    reload('v4-reload-replay-cut', 'a new page; the replay breaks inside the tool input', [USER_V4], [{ status: 200, headers: V4_HEADERS, body: cutInside(body, 9, 'v4'), end: 'cut' }]),
    reload('v4-reload-204', 'a new page; the resume is answered 204', [USER_V4], [status(204)]),
    reload('v4-reload-404', 'a new page; the resume is answered 404, as the documented server does when it has no stream', [USER_V4], [status(404, 'No streams found', { 'content-type': 'text/plain' })]),
    reload('v4-reload-refused', 'a new page; the resume gets no response (fetch rejects)', [USER_V4], [{ status: 0, headers: {}, body: Buffer.alloc(0), end: 'refused' }]),
    reload('v4-reload-empty-200', 'a new page; the resume is answered 200 with an empty body', [USER_V4], [ok(Buffer.alloc(0), 'eof', V4_HEADERS)]),
  ];
}

export function scenarios() {
  return [...aiSDK(), ...workflow(), ...aiSDK4()];
}
