// edge.mjs holds the hand-made streams of corpus/ui/edge/: one behaviour
// per stream, the name says which. Most put the odd bytes or the odd chunk
// between a few good chunks, so that "what comes before is delivered" and
// "what comes after is (not) read" both show. The client readings come
// from the real releases, like those of the server-written streams.

const enc = new TextEncoder();

const J = (v) => JSON.stringify(v);
// frame is one event as the SDK's server writes it.
const frame = (chunk) => `data: ${typeof chunk === 'string' ? chunk : J(chunk)}\n\n`;
const frames = (chunks) => chunks.map(frame).join('');
const DONE = 'data: [DONE]\n\n';

const HEAD = [
  { type: 'start', messageId: 'msg-edge' },
  { type: 'start-step' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Hello' },
];
const TAIL = [{ type: 'text-delta', id: 't1', delta: ' world' }, { type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' }];

// around puts raw event text between the good head and tail.
const around = (middle) => frames(HEAD) + middle + frames(TAIL) + DONE;
// withChunks puts chunks between the good head and tail.
const withChunks = (...chunks) => around(frames(chunks));

const bytes = (...parts) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(enc.encode(p)) : Buffer.from(p))));

// startMessage is an assistant message a client already holds, for the
// continue cases.
const startMessage = {
  id: 'msg-held',
  role: 'assistant',
  metadata: { session: 's1', tags: ['a'] },
  parts: [
    { type: 'step-start' },
    { type: 'text', text: 'Let me check.', state: 'done' },
    { type: 'tool-weather', toolCallId: 'call-held', state: 'input-available', input: { city: 'Paris' } },
  ],
};

// edgeCases returns [{name, description, bytes, message?}].
export function edgeCases() {
  const c = [];
  const add = (name, description, body, message) => c.push({ name, description, bytes: bytes(...[].concat(body)), message });

  // SSE framing.
  const plain = frames(HEAD) + frames(TAIL) + DONE;
  add('lf-baseline', 'the good stream every edge stream starts from, as the SDK server writes it', plain);
  add('crlf-line-ends', 'every line ends in \\r\\n', plain.replaceAll('\n', '\r\n'));
  add('cr-line-ends', 'every line ends in a lone \\r', plain.replaceAll('\n', '\r'));
  add('mixed-line-ends', 'events end in \\n\\n, \\r\\n\\r\\n, \\r\\r, \\n\\r and \\r\\n\\n', [
    `data: ${J(HEAD[0])}\n\n`,
    `data: ${J(HEAD[1])}\r\n\r\n`,
    `data: ${J(HEAD[2])}\r\r`,
    `data: ${J(HEAD[3])}\n\r`,
    `data: ${J(TAIL[0])}\r\n\n`,
    frames(TAIL.slice(1)),
    DONE,
  ]);
  add('cr-at-eof', 'the last event ends in \\r\\r at the end of the body: the parser holds the last \\r back and never sees the blank line, so the event is dropped', [
    frames([...HEAD, ...TAIL]),
    `data: ${J({ type: 'data-late', data: 1 })}\r\r`,
  ]);
  add('data-no-space', '"data:" without the space after the colon', plain.replaceAll('data: ', 'data:'));
  add('data-two-spaces', '"data:  " with two spaces: one is stripped, the JSON keeps a leading space and parses, but " [DONE]" is not the marker: a JSON error at the end', plain.replaceAll('data: ', 'data:  '));
  add('multi-line-data', 'one chunk\'s JSON pretty-printed over several data: lines, joined with \\n', around(
    JSON.stringify({ type: 'text-delta', id: 't1', delta: ',' }, null, 2)
      .split('\n')
      .map((l) => `data: ${l}\n`)
      .join('') + '\n',
  ));
  add('multi-line-data-two-objects', 'two JSON objects on two data: lines of one event: joined with \\n, not JSON', around(
    `data: ${J({ type: 'text-delta', id: 't1', delta: 'a' })}\ndata: ${J({ type: 'text-delta', id: 't1', delta: 'b' })}\n\n`,
  ));
  add('comments', 'comment lines (":ping", ": keep-alive", ":") before, between and inside events', [
    ': stream-open\n\n',
    frames(HEAD.slice(0, 2)),
    ':ping\n\n:\n',
    `: inside\ndata: ${J(HEAD[2])}\n: inside too\n\n`,
    frames(HEAD.slice(3)),
    ': keep-alive\n\n',
    frames(TAIL),
    DONE,
  ]);
  add('event-id-retry-fields', 'event:, id: and retry: fields (and an invalid retry) around the data: lines, ignored', around(
    `event: message\nid: 7\nretry: 1000\ndata: ${J({ type: 'text-delta', id: 't1', delta: ',' })}\n\nid: 8\nevent: delta\nretry: soon\ndata: ${J({ type: 'text-delta', id: 't1', delta: '!' })}\nid\n\n`,
  ));
  add('unknown-fields', 'unknown fields (foo:, a bare word, 0:"x") inside and between events, ignored', around(
    `foo: bar\n0:"x"\ndata: ${J({ type: 'text-delta', id: 't1', delta: ',' })}\nDATA: upper case is another field\nword\n\n`,
  ));
  add('bare-data-line', 'a "data" line without colon adds an empty data line: the joined data starts with \\n and still parses', around(
    `data\ndata: ${J({ type: 'text-delta', id: 't1', delta: ',' })}\n\n`,
  ));
  add('empty-data', 'an event whose only data: line is empty: "" is not JSON', around('data:\n\n'));
  add('blank-lines', 'runs of blank lines between events dispatch nothing', around('\n\n\n\n\r\n\r\n'));
  add('bom', 'a UTF-8 BOM before the first event: the decoder strips it', [Buffer.from([0xef, 0xbb, 0xbf]), plain]);
  add('double-bom', 'two BOMs: the decoder strips one, the second makes the first line the field "\\ufeffdata", so the first event is lost', [
    Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]),
    plain,
  ]);
  add('invalid-utf8', 'invalid UTF-8 inside a JSON string (a lone FF, a cut two-byte sequence, a UTF-8 surrogate): each becomes U+FFFD', [
    frames(HEAD),
    'data: {"type":"text-delta","id":"t1","delta":"a',
    Buffer.from([0xff]),
    'b',
    Buffer.from([0xc3]),
    'c',
    Buffer.from([0xed, 0xa0, 0x80]),
    '"}\n\n',
    frames(TAIL),
    DONE,
  ]);
  add('invalid-utf8-outside-string', 'a stray FF byte after the JSON value: U+FFFD after the value is not JSON', [
    frames(HEAD),
    `data: ${J({ type: 'text-delta', id: 't1', delta: ',' })}`,
    Buffer.from([0xff]),
    '\n\n',
    frames(TAIL),
    DONE,
  ]);
  add('unicode-line-separators', 'raw U+2028, U+2029 and U+0085 inside a JSON string: not line ends', withChunks({ type: 'text-delta', id: 't1', delta: 'a\u2028b\u2029c\u0085d' }));
  add('no-blank-line-at-end', 'the last event has its line end but no blank line after it: the client drops it', frames([...HEAD, ...TAIL.slice(0, 3)]) + `data: ${J(TAIL[3])}\n`);
  add('no-line-end-at-end', 'the body ends in the middle of a data: line: the client drops the event', frames([...HEAD, ...TAIL.slice(0, 3)]) + `data: ${J(TAIL[3])}`);
  add('no-done', 'no [DONE] at the end: nothing changes for the client', frames([...HEAD, ...TAIL]));
  add('done-in-middle', '[DONE] in the middle: ignored, the chunks after it are read', frames(HEAD) + DONE + frames(TAIL) + DONE);
  add('done-with-trailing-space', '"data: [DONE] " with a trailing space is not the [DONE] marker: a JSON error', around('data: [DONE] \n\n'));
  add('done-lowercase', '"data: [done]" is not the marker: a JSON error', around('data: [done]\n\n'));
  add('done-only', 'a body of only [DONE]: no chunk, no message', DONE);
  add('empty-body', 'an empty body: no chunk, no message', '');
  add('large-event', 'one text delta of 200,000 bytes, longer than the usual 64 KiB line buffers', withChunks({ type: 'text-delta', id: 't1', delta: 'x'.repeat(200000) }));

  // JSON.
  add('invalid-json', 'an event whose data is cut-off JSON', around('data: {"type":"text-delta","id":"t1",\n\n'));
  add('json-not-object', 'data that is JSON but not an object (a number)', around('data: 42\n\n'));
  add('json-null', 'data that is JSON null', around('data: null\n\n'));
  add('json-proto-key', 'a __proto__ key inside data: the SDK\'s secure JSON parse rejects it', withChunks('{"type":"data-x","data":{"__proto__":{"polluted":true}}}'));
  add('json-constructor-prototype', 'a constructor.prototype key path: rejected like __proto__', withChunks('{"type":"data-x","data":{"constructor":{"prototype":{"a":1}}}}'));
  add('json-duplicate-key', 'a duplicate key: the last value wins', withChunks('{"type":"text-delta","id":"t1","delta":"first","delta":"second"}'));
  add('json-whitespace', 'whitespace around and inside the JSON value', withChunks(' \t{ "type" : "text-delta" , "id":"t1", "delta" : "," } \t'));
  add('json-numbers', 'numbers JSON.stringify rewrites (1e400, -0, 1.0, 1E2, 2^64, 0.1+) in a data part', withChunks('{"type":"data-n","data":[1e400,-0,1.0,1E2,18446744073709551616,0.30000000000000004,-1e-7,123456789012345678]}'));
  add('json-escapes', 'escapes JSON.stringify writes differently (\\/, \\u0041, a lone surrogate, \\u2028)', withChunks('{"type":"text-delta","id":"t1","delta":"\\/\\u0041\\ud800\\u2028\\u00e9\\b"}'));
  add('json-integer-keys', 'object keys that are array indexes: JSON.stringify writes them first, ascending', withChunks('{"type":"data-k","data":{"b":1,"10":2,"a":3,"2":4,"-1":5,"01":6}}'));

  // Chunk schemas.
  add('unknown-chunk-type', 'a chunk whose type no release knows', withChunks({ type: 'text-chunk', id: 't1', delta: ',' }));
  add('chunk-without-type', 'a chunk object without type', withChunks({ id: 't1', delta: ',' }));
  add('unknown-key', 'a known chunk with an extra key: the strict releases throw, the loose ones keep it', withChunks({ type: 'text-delta', id: 't1', delta: ',', extra: 1 }));
  add('unknown-key-on-data-part', 'a data part with an extra key: strict releases throw, loose ones keep it in the part', withChunks({ type: 'data-x', id: 'd1', data: 1, extra: true }));
  add('finish-reason-stop', 'finish with finishReason "stop" (releases before 5.0.92 do not know the key)', frames([...HEAD, ...TAIL.slice(0, 3)]) + frame({ type: 'finish', finishReason: 'stop' }) + DONE);
  add('finish-reason-unknown', 'finishReason "unknown": in the ai 5 enum, not in 6 or 7', frames([...HEAD, ...TAIL.slice(0, 3)]) + frame({ type: 'finish', finishReason: 'unknown' }) + DONE);
  add('finish-reason-interrupted', 'finishReason "interrupted" (ai 7 later releases)', frames([...HEAD, ...TAIL.slice(0, 3)]) + frame({ type: 'finish', finishReason: 'interrupted' }) + DONE);
  add('finish-reason-bogus', 'a finishReason no release has', frames([...HEAD, ...TAIL.slice(0, 3)]) + frame({ type: 'finish', finishReason: 'done' }) + DONE);
  add('finish-with-metadata', 'finish with messageMetadata: merged and written', frames([...HEAD, ...TAIL.slice(0, 3)]) + frame({ type: 'finish', messageMetadata: { usage: { total: 3 } } }) + DONE);
  add('missing-required-field', 'text-delta without delta', withChunks({ type: 'text-delta', id: 't1' }));
  add('wrong-field-type', 'text-delta whose delta is a number', withChunks({ type: 'text-delta', id: 't1', delta: 5 }));
  add('null-optional-field', 'an optional field sent as null (providerMetadata: null): zod optional does not take null', withChunks({ type: 'text-delta', id: 't1', delta: ',', providerMetadata: null }));
  add('provider-metadata-wrong-shape', 'providerMetadata that is not a record of records', withChunks({ type: 'text-delta', id: 't1', delta: ',', providerMetadata: { mock: 1 } }));
  add('tool-output-without-output', 'tool-output-available without its output key (zod >= 4.4 rejects an absent unknown() key)', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {} },
    { type: 'tool-output-available', toolCallId: 'c1' },
  ));
  add('tool-output-null-output', 'tool-output-available with output null: accepted', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {} },
    { type: 'tool-output-available', toolCallId: 'c1', output: null },
  ));
  add('data-part-without-data', 'a data part without its data key', withChunks({ type: 'data-x', id: 'd1' }));
  add('data-bare-prefix', 'the type "data-" with nothing after the prefix', withChunks({ type: 'data-', data: 1 }));
  add('message-metadata-absent', 'message-metadata without messageMetadata', withChunks({ type: 'message-metadata' }));
  add('message-metadata-null', 'message-metadata with messageMetadata null: no write', withChunks({ type: 'message-metadata', messageMetadata: null }));
  add('tool-input-error-chunk', 'a tool-input-error chunk (known from 5.0.7)', withChunks(
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'w' },
    { type: 'tool-input-error', toolCallId: 'c1', toolName: 'w', input: '{"x":', errorText: 'bad' },
  ));
  add('preliminary-key', 'tool-output-available with preliminary: true (known from 5.0.11)', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {} },
    { type: 'tool-output-available', toolCallId: 'c1', output: { p: 1 }, preliminary: true },
  ));
  add('tool-title-key', 'tool-input-start with title (an ai 6 key)', withChunks({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'w', title: 'Weather' }));
  add('tool-metadata-key', 'tool-input-available with toolMetadata (6.0.176+)', withChunks({ type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {}, toolMetadata: { k: 1 } }));
  add('abort-reason', 'abort with a reason (6.0.15+)', frames(HEAD) + frame({ type: 'abort', reason: 'user stopped' }) + DONE);
  add('abort', 'abort without a reason: the client ignores it', frames(HEAD) + frame({ type: 'abort' }) + DONE);
  add('approval-chunks', 'tool-approval-request and tool-output-denied (ai 6 types)', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {} },
    { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
    { type: 'tool-output-denied', toolCallId: 'c1' },
  ));
  add('approval-response-chunk', 'tool-approval-response (an ai 7 type)', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {} },
    { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
    { type: 'tool-approval-response', approvalId: 'a1', approved: true },
  ));
  add('custom-chunk', 'a custom chunk (an ai 7 type)', withChunks({ type: 'custom', kind: 'acme.marker' }));
  add('reasoning-file-chunk', 'a reasoning-file chunk (an ai 7 type)', withChunks({ type: 'reasoning-file', url: 'data:text/plain;base64,aGk=', mediaType: 'text/plain' }));
  add('legacy-reasoning-chunks', 'the legacy reasoning and reasoning-part-finish chunks of 5.0.0–5.0.51', withChunks({ type: 'reasoning', text: 'old' }, { type: 'reasoning-part-finish' }));

  // Assembly.
  add('text-delta-never-started', 'a text-delta for an id no text-start opened', withChunks({ type: 'text-delta', id: 't9', delta: 'x' }));
  add('text-delta-after-end', 'a text-delta for an id after its text-end', frames(HEAD) + frame({ type: 'text-end', id: 't1' }) + frame({ type: 'text-delta', id: 't1', delta: 'late' }) + DONE);
  add('text-delta-after-finish-step', 'a text-delta for an id opened before a finish-step', frames(HEAD) + frame({ type: 'finish-step' }) + frame({ type: 'text-delta', id: 't1', delta: 'late' }) + DONE);
  add('text-end-never-started', 'a text-end for an id never opened', withChunks({ type: 'text-end', id: 't9' }));
  add('text-delta-id-tostring', 'a text-delta for the id "toString", never opened (an Object.prototype name)', withChunks({ type: 'text-delta', id: 'toString', delta: 'x' }));
  add('text-start-id-proto', 'text parts with ids "__proto__" and "constructor"', withChunks(
    { type: 'text-start', id: '__proto__' },
    { type: 'text-delta', id: '__proto__', delta: 'p' },
    { type: 'text-end', id: '__proto__' },
    { type: 'text-start', id: 'constructor' },
    { type: 'text-delta', id: 'constructor', delta: 'c' },
  ));
  add('text-start-twice', 'a second text-start with an active id: a new part takes the id', withChunks({ type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'second' }));
  add('reasoning-delta-never-started', 'a reasoning-delta for an id never opened', withChunks({ type: 'reasoning-delta', id: 'r9', delta: 'x' }));
  add('tool-input-delta-never-started', 'a tool-input-delta for a call never started', withChunks({ type: 'tool-input-delta', toolCallId: 'c9', inputTextDelta: '{' }));
  add('tool-output-unknown-call', 'tool-output-available for a call the message does not hold', withChunks({ type: 'tool-output-available', toolCallId: 'c9', output: 1 }));
  add('tool-output-error-unknown-call', 'tool-output-error for a call the message does not hold', withChunks({ type: 'tool-output-error', toolCallId: 'c9', errorText: 'x' }));
  add('tool-approval-unknown-call', 'tool-approval-request for a call the message does not hold', withChunks({ type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c9' }));
  add('tool-output-dynamic-flag-missing', 'the output of a dynamic tool call sent without dynamic: true', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'mcp', input: {}, dynamic: true },
    { type: 'tool-output-available', toolCallId: 'c1', output: 'ok' },
  ));
  add('tool-output-dynamic-flag-extra', 'the output of a static tool call sent with dynamic: true', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: {} },
    { type: 'tool-output-available', toolCallId: 'c1', output: 'ok', dynamic: true },
  ));
  add('tool-output-earlier-step', 'an output for a call made in an earlier step', frames(HEAD.slice(0, 2)) + frames([
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: { a: 1 } },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'tool-output-available', toolCallId: 'c1', output: 'late' },
    { type: 'finish-step' },
    { type: 'finish' },
  ]) + DONE);
  add('tool-call-id-reused', 'a second tool-input-start with a toolCallId already used: the part is updated, not added', withChunks(
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'w', input: { a: 1 } },
    { type: 'tool-output-available', toolCallId: 'c1', output: 1 },
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'w' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"b":' },
  ));
  add('tool-input-partial-unicode-escape', 'tool input deltas that stop inside a \\u escape: 6.0.208+ and 7 cut the escape, 5 does not', withChunks(
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'w' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":"Z\\u00' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'fc' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'rich\\u' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '0' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '021"}' },
  ));
  add('error-chunk', 'an error chunk in the middle: readUIMessageStream reports it and reads on (useChat stops there)', withChunks({ type: 'error', errorText: 'something failed' }));
  add('error-chunk-first', 'an error chunk as the first chunk', frame({ type: 'error', errorText: 'refused' }) + DONE);
  add('reset-step', 'reset-step (7.0.70+) drops the parts of the current step', frames(HEAD) + frames([
    { type: 'reset-step' },
    { type: 'text-start', id: 't2' },
    { type: 'text-delta', id: 't2', delta: 'again' },
    { type: 'text-end', id: 't2' },
    { type: 'finish-step' },
    { type: 'finish' },
  ]) + DONE);
  add('data-parts-replaced-by-id', 'data parts with ids replaced in place, the same id under another type, no id, and transient', withChunks(
    { type: 'data-w', id: 'd1', data: { v: 1 } },
    { type: 'data-w', data: { v: 'no id' } },
    { type: 'data-w', id: 'd2', data: { v: 2 } },
    { type: 'data-w', id: 'd1', data: { v: 3 } },
    { type: 'data-v', id: 'd1', data: { v: 4 } },
    { type: 'data-w', id: 'd1', data: { v: 5 }, transient: true },
    { type: 'data-w', id: 'd2', data: null },
  ));
  add('data-part-transient-only', 'only a transient data part: no part, no write', frames([{ type: 'start' }, { type: 'data-t', data: 1, transient: true }]) + DONE);
  add('start-without-message-id', 'start without messageId: the message keeps the id readUIMessageStream began with ("")', frames([{ type: 'start' }, ...HEAD.slice(1), ...TAIL]) + DONE);
  add('start-twice-other-id', 'a second start with another messageId mid-stream', withChunks({ type: 'start', messageId: 'msg-other' }));
  add('start-late', 'the start chunk comes after text', frames(HEAD.slice(1)) + frame({ type: 'start', messageId: 'msg-late', messageMetadata: { a: 1 } }) + frames(TAIL) + DONE);
  add('metadata-merge', 'message-metadata merged deeply: objects merged, arrays and primitives replaced, null kept', frames([
    { type: 'start', messageId: 'msg-edge', messageMetadata: { a: { x: 1, y: [1, 2] }, b: 1, c: 'keep' } },
    { type: 'message-metadata', messageMetadata: { a: { y: [3], z: { deep: true } }, b: null } },
    { type: 'message-metadata', messageMetadata: { a: { x: { now: 'object' } }, d: [] } },
    { type: 'message-metadata', messageMetadata: 'a string' },
    { type: 'message-metadata', messageMetadata: { e: 1 } },
  ]) + DONE);
  add('v4-lines', 'a v4 data stream body (0:"hi" lines): no field is data, so no event, no message, no error', 'f:{"messageId":"msg-v4"}\n0:"Hello"\n0:", world"\ne:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"isContinued":false}\nd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}\n');
  add('v4-lines-blank-separated', 'v4 lines with blank lines between them: still no data field, no event', '0:"Hello"\n\n0:", world"\n\n');
  add('v4-line-with-data-code', 'a v4 line "2:[…]" then an SSE event: only the event counts', '2:[{"chatId":"c1"}]\n' + frames([...HEAD, ...TAIL]) + DONE);

  // Continuing a message the client holds.
  add('continue-tool-output', 'continuing a held message: the output of its input-available tool call arrives', frames([
    { type: 'start', messageId: 'msg-held' },
    { type: 'tool-output-available', toolCallId: 'call-held', output: { temperature: 20 } },
    { type: 'start-step' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: '20 C.' },
    { type: 'text-end', id: 't1' },
    { type: 'finish-step' },
    { type: 'finish', messageMetadata: { tags: ['b'] } },
  ]) + DONE, startMessage);
  add('continue-other-message-id', 'continuing a held message when the start chunk names another message id', frames([
    { type: 'start', messageId: 'msg-new' },
    { type: 'start-step' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'new' },
    { type: 'text-end', id: 't1' },
    { type: 'finish-step' },
    { type: 'finish' },
  ]) + DONE, startMessage);
  return c;
}
