// read.mjs reads a response body with one release's own client, the way
// useChat's DefaultChatTransport hands it to the assembly, and records what
// the client makes of every event.
//
// The body goes through the release's DefaultChatTransport.sendMessages
// (its fetch answers 200 with the body): parseJsonEventStream with
// uiMessageChunkSchema, every failed parse thrown, exactly as the release's
// useChat gets its chunks. Those chunks are fed one at a time to the
// release's public readUIMessageStream; after each, the event loop is left
// to run until nothing is pending (the assembly awaits only promises), and
// the message readUIMessageStream has yielded last is taken. So each line
// says what a client that has read the stream up to that event shows.

import { setImmediate as tick } from 'node:timers/promises';

import { sseEvents } from './sse.mjs';

const API = 'http://corpus.invalid/api/chat';

// settle lets every pending promise job and stream step run.
async function settle() {
  for (let i = 0; i < 3; i++) await tick();
}

// errorRecord is what an expected file keeps of a thrown value: its name
// and message, and for a failed validation a summary of zod's issues.
export function errorRecord(e) {
  if (!(e instanceof Error)) return { name: typeof e, message: String(e) };
  const r = { name: e.name, message: e.message };
  const issues = Array.isArray(e.cause) ? e.cause : e.cause?.issues;
  if (e.name === 'AI_TypeValidationError' && Array.isArray(issues)) r.issues = issueSummary(issues);
  return r;
}

// issueSummary shortens zod's issues to one string each. A union that no
// member accepts names the issues of the members whose type matched, or
// says that none did.
function issueSummary(issues) {
  const out = [];
  for (const is of issues) {
    const path = (is.path ?? []).join('.');
    if (is.code === 'invalid_union' && Array.isArray(is.errors)) {
      const typed = is.errors.filter((branch) => !branch.some((b) => b.path?.[0] === 'type'));
      if (typed.length === 0) out.push(`${path || '(chunk)'}: no chunk type of the schema matches`);
      for (const branch of typed) out.push(...issueSummary(branch));
      continue;
    }
    const keys = Array.isArray(is.keys) ? ` [${is.keys.join(', ')}]` : '';
    out.push(`${path || '(chunk)'}: ${is.code}: ${is.message}${keys}`);
  }
  return out;
}

// readBody reads bytes with the release whose module is sdk. message is the
// assistant message the client continues (readUIMessageStream's message
// option), or undefined. terminateOnError is readUIMessageStream's option:
// true stops the reading at the first error it reports, an error chunk
// included, as useChat stops (its onError throws). It returns {lines,
// outcome, events, unterminated}: lines holds one record per event the
// transport parses (every event but [DONE]), outcome the end of the
// reading.
export async function readBody(sdk, bytes, message, { terminateOnError = false } = {}) {
  const { events, unterminated } = sseEvents(bytes);
  const parsedEvents = events.filter((e) => e.data !== '[DONE]');

  const transport = new sdk.DefaultChatTransport({
    api: API,
    fetch: async () =>
      new Response(bytes, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const chunks = await transport.sendMessages({
    chatId: 'chat-1',
    messages: message === undefined ? [] : [structuredClone(message)],
    abortSignal: undefined,
    trigger: 'submit-message',
    messageId: undefined,
  });
  const source = chunks.getReader();

  const lines = [];
  let current = null; // the line of the chunk last handed to the assembly
  let last = null; // JSON of the message readUIMessageStream yielded last
  let yields = 0;
  const errors = []; // onError calls not yet attributed to a line

  const finishLine = () => {
    if (current === null) return;
    current.message = last;
    current.yields = yields;
    if (errors.length > 0) current.on_error = errors.splice(0).map(errorRecord);
    yields = 0;
    current = null;
  };

  let cancelled = false;
  let terminated = false; // the reader errored its output (terminateOnError): read no more
  let thrown; // the error that stopped the assembly or the transport
  const gated = new ReadableStream(
    {
      async pull(controller) {
        await settle();
        finishLine();
        if (cancelled) return;
        if (terminated) {
          controller.close();
          return;
        }
        const k = lines.length;
        const ev = parsedEvents[k];
        let r;
        try {
          r = await source.read();
        } catch (e) {
          current = { event: ev ? ev.index : null, end: ev ? ev.end : null, parse_error: errorRecord(e) };
          lines.push(current);
          thrown = e;
          controller.error(e);
          return;
        }
        if (r.done) {
          controller.close();
          return;
        }
        current = { event: ev ? ev.index : null, end: ev ? ev.end : null, chunk: JSON.stringify(r.value) };
        lines.push(current);
        controller.enqueue(r.value);
      },
      // The pipe into processUIMessageStream cancels its source when the
      // assembly throws.
      cancel(reason) {
        cancelled = true;
        thrown = reason;
      },
    },
    { highWaterMark: 0 },
  );

  let attributed = null; // the line that was current when the reading stopped
  const iterator = sdk.readUIMessageStream({
    stream: gated,
    message: message === undefined ? undefined : structuredClone(message),
    onError: (e) => errors.push(e),
    terminateOnError,
  });
  try {
    for await (const m of iterator) {
      last = JSON.stringify(m);
      yields++;
    }
  } catch (e) {
    // terminateOnError: the reader errored its output with the error it
    // reported through onError, at the chunk the assembly is on (the next
    // pull waits for settle(), which runs after this).
    if (!terminateOnError) throw e;
    terminated = true;
    attributed = current;
    if (thrown === undefined) thrown = e;
  }
  await settle();
  attributed ??= current;
  if (attributed === null && thrown !== undefined) throw new Error('an error with no chunk to blame');
  finishLine();

  // readUIMessageStream reports both an error chunk (and goes on reading)
  // and the error that ends the reading through onError; the second is the
  // one the pipe cancelled its source with, or the transport's parse error.
  let outcome = { result: 'ok' };
  if (thrown !== undefined) {
    const on = attributed.on_error ?? [];
    const i = on.length - 1;
    if (i < 0 || on[i].message !== errorRecord(thrown).message) {
      throw new Error(`the reading stopped with ${errorRecord(thrown).message} but onError did not report it last`);
    }
    on.pop();
    if (on.length === 0) delete attributed.on_error;
    attributed.throws = errorRecord(thrown);
    outcome = { result: 'throws', event: attributed.event, line: lines.indexOf(attributed), error: attributed.throws };
  } else if (lines.length !== parsedEvents.length) {
    throw new Error(`the transport parsed ${lines.length} events, the framing found ${parsedEvents.length}`);
  } else if (lines.some((l) => l.on_error !== undefined)) {
    outcome.result = 'ok-after-error-chunk';
  }
  return { lines, outcome, events, unterminated, last };
}
