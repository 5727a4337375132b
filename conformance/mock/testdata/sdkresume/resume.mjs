// resume.mjs resumes streams of the chatwire mock that cut the first response
// of each stream (chatwire serve -cut-after N, mock.Options.CutAfter) with the
// real clients installed here, each driven as its UI library drives it:
//
//   ai@5.0.277, ai@6.0.326, ai@7.0.173  the release's AbstractChat (the class
//       @ai-sdk/react's Chat extends; its state here is ReactChatState's,
//       without React) over its DefaultChatTransport, as useChat({resume:
//       true}) runs it: sendMessage, then resumeStream() on the same Chat
//       (same page), or a new Chat holding what the server persisted and
//       resumeStream() on mount (new page).
//   workflow@2.0.43  @ai-sdk/workflow's WorkflowChatTransport under ai
//       7.0.173's Chat: its POST (x-workflow-run-id) and its own reconnect
//       GET {api}/{runId}/stream?startIndex=N; Chat.resumeStream() on a new
//       page (GET {api}/{chatId}/stream?startIndex=0, or a negative
//       initialStartIndex: the tail, with x-workflow-stream-tail-index).
//   ai@4.3.19  @ai-sdk/ui-utils 1.2.11's callChatApi as ai 4.3.19's useChat
//       (@ai-sdk/react 1.2.12) calls it: append, then experimental_resume
//       (requestType 'resume': GET {api}?chatId=ID).
//
//   npm ci && node resume.mjs < runs.json > results.json
//
// runs.json is [{name, client, scenario, url, ref, key, otherKey, text,
// chatId, tail}]: url the cutting mock's base URL, ref an uncut twin's
// (the same seed: the same ids), key the API key, otherKey a key of
// another team, text the user's message, chatId the chat id the AI SDK
// clients choose (the workflow transport sends none), tail the negative
// initialStartIndex of the tail scenario. Each client sends its own
// request bodies and headers, its key added. The scenarios:
//
//   same-page       the POST is cut; resumeStream() on the same Chat. The
//                   cut reaches the client as a browser reports a broken
//                   body (Chromium: TypeError "network error"), which the
//                   AI SDK 5-7 Chat counts as a disconnect and keeps its
//                   streaming state for (ai 4: experimental_resume on the
//                   same useChat).
//   same-page-node  the same with Node's own fetch error (undici's
//                   TypeError "terminated"), which no release counts as a
//                   disconnect: the Chat keeps no streaming state.
//   post-cut        (workflow) the POST is cut; the transport resumes by
//                   itself, GET by the run id from the chunks it counted.
//   reload          the POST is cut, the page closes; a new page holds the
//                   user message alone and resumes on mount.
//   after-end       the stream ended; a new page holds what the server
//                   persisted and resumes on mount: the whole answer for
//                   DefaultChatTransport's clients, the user message alone
//                   for the workflow transport and for ai 4 (whose
//                   useAutoResume resumes only then).
//   unknown         after the cut chat, a new chat (an id the client
//                   made up, no message) resumes on mount.
//   no-key, other-team  as after-end, resuming without a key, or with
//                   otherKey.
//   tail            (workflow) after the stream ended, a new page resumes
//                   from the tail: initialStartIndex = tail.
//
// The output is {node, results: [{name, reference, referenceChunks, cut,
// cutError, messages, status, error, requests, chunkIndex, logs}]}:
// reference the messages of an uncut read by the same client (ref),
// referenceChunks the chunks the workflow transport counted in it, cut
// the messages as they stood after the cut (cutError the error the cut
// POST ended in), messages and status the chat's at the end, error
// {name, message} of the error the chat ended in (or null), requests
// [{page, method, path, status, runId, tailIndex, broken, error}] as the
// client sent them (page 2 the new page's; error where fetch threw),
// chunkIndex the workflow transport's onChatEnd count, logs what the
// client logged (first lines).
// Each run has a time limit, and the workflow transport, which asks again
// without end for a stream without finish, is stopped at MAX_REQUESTS:
// both end the run with an error that says so, never a hang.

import { readFileSync } from 'node:fs';
import * as ai5 from 'ai-5.0.277';
import * as ai6 from 'ai-6.0.326';
import * as ai7 from 'ai-7.0.173';
import { WorkflowChatTransport } from '@ai-sdk/workflow/client';
import { callChatApi, fillMessageParts } from '@ai-sdk/ui-utils';

const ai4 = JSON.parse(readFileSync(new URL('./node_modules/ai-4.3.19/package.json', import.meta.url)));
if (ai4.dependencies['@ai-sdk/ui-utils'] !== '1.2.11' || ai4.dependencies['@ai-sdk/react'] !== '1.2.12') {
  throw new Error(`ai 4.3.19 wants ui-utils ${ai4.dependencies['@ai-sdk/ui-utils']}, react ${ai4.dependencies['@ai-sdk/react']}`);
}

const sdks = { 'ai@5.0.277': ai5, 'ai@6.0.326': ai6, 'ai@7.0.173': ai7 };
const TIMEOUT_MS = 20_000;
const MAX_REQUESTS = 12;

// ChatState is @ai-sdk/react's ReactChatState without React: the messages
// replaced as arrays, a replaced message deep-copied.
class ChatState {
  constructor(messages) {
    this.messages = messages;
    this.status = 'ready';
    this.error = undefined;
  }
  pushMessage = (m) => {
    this.messages = this.messages.concat(m);
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (i, m) => {
    this.messages = [...this.messages.slice(0, i), this.snapshot(m), ...this.messages.slice(i + 1)];
  };
  snapshot = (v) => structuredClone(v);
}

// newChat returns a Chat of release sdk, as useChat makes one.
function newChat(sdk, { id, transport, messages = [], prefix }) {
  let n = 0;
  const Chat = class extends sdk.AbstractChat {};
  return new Chat({ id, transport, state: new ChatState(messages), generateId: () => `${prefix}-${++n}` });
}

// Recorder is the fetch the clients use: it logs each request, reports a
// broken body as a browser or Node does, and stops a client that asks
// again without end.
class Recorder {
  constructor(browser) {
    this.browser = browser;
    this.requests = [];
    this.onBroken = () => {};
  }
  // fetchOf returns the fetch of a page (1, or 2 for the new one), which
  // logs its requests with the page's number.
  fetchOf = (page) => (url, init) => this.fetch(page, url, init);
  fetch = async (page, url, init = {}) => {
    if (this.requests.length >= MAX_REQUESTS) {
      throw new Error(`harness: stopped after ${MAX_REQUESTS} requests`);
    }
    const u = new URL(url);
    const rec = { page, method: init.method ?? 'GET', path: u.pathname + u.search };
    this.requests.push(rec);
    let res;
    try {
      res = await fetch(url, init);
    } catch (e) {
      rec.error = errorOf(e);
      throw e;
    }
    rec.status = res.status;
    const runId = res.headers.get('x-workflow-run-id');
    if (runId) rec.runId = runId;
    const tail = res.headers.get('x-workflow-stream-tail-index');
    if (tail !== null) rec.tailIndex = tail;
    if (res.body == null) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream({
      pull: async (c) => {
        let r;
        try {
          r = await reader.read();
        } catch (e) {
          rec.broken = true;
          this.onBroken();
          // Chromium's message for a response body that fails mid-way; Node's
          // undici says "terminated".
          throw this.browser ? new TypeError('network error') : e;
        }
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel: (why) => reader.cancel(why),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function errorOf(e) {
  if (e == null) return null;
  return { name: e?.name ?? typeof e, message: String(e?.message ?? e) };
}

function userMessage(text) {
  return { id: 'user-1', role: 'user', parts: [{ type: 'text', text }] };
}

// settle runs a chat action under the time limit: on time out the chat is
// stopped and the run ends in an error that says so.
async function settle(chat, action, what) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS);
  });
  const r = await Promise.race([action().then(() => 'done'), timeout]);
  clearTimeout(timer);
  if (r === 'timeout') {
    chat?.stop?.();
    throw new Error(`harness: ${what} did not settle in ${TIMEOUT_MS} ms`);
  }
}

function headersOf(key) {
  return key ? { Authorization: `Bearer ${key}` } : {};
}

// aiSDK runs a scenario with the AI SDK 5, 6 or 7 Chat and DefaultChatTransport.
async function aiSDK(sdk, run) {
  const rec = new Recorder(run.scenario !== 'same-page-node');
  const transport = (key, api, page = 1) =>
    new sdk.DefaultChatTransport({ api: new URL('/api/chat', api).href, headers: headersOf(key), fetch: rec.fetchOf(page) });
  const out = { requests: rec.requests };

  const ref = newChat(sdk, { id: run.chatId, transport: transport(run.key, run.ref), prefix: 'gen' });
  await settle(ref, () => ref.sendMessage(userMessage(run.text)), 'the uncut read');
  out.reference = structuredClone(ref.messages);
  rec.requests.length = 0;

  const page1 = newChat(sdk, { id: run.chatId, transport: transport(run.key, run.url), prefix: 'gen' });
  await settle(page1, () => page1.sendMessage(userMessage(run.text)), 'the cut POST');
  out.cut = structuredClone(page1.messages);
  out.cutError = errorOf(page1.error);
  let chat = page1;
  switch (run.scenario) {
    case 'same-page':
    case 'same-page-node':
      break;
    case 'reload':
      chat = newChat(sdk, { id: run.chatId, transport: transport(run.key, run.url, 2), messages: [userMessage(run.text)], prefix: 'gen2' });
      break;
    case 'unknown':
      chat = newChat(sdk, { id: 'chat-made-up-by-the-client', transport: transport(run.key, run.url, 2), prefix: 'gen2' });
      break;
    case 'after-end':
    case 'no-key':
    case 'other-team': {
      const key = run.scenario === 'no-key' ? '' : run.scenario === 'other-team' ? run.otherKey : run.key;
      chat = newChat(sdk, { id: run.chatId, transport: transport(key, run.url, 2), messages: structuredClone(out.reference), prefix: 'gen2' });
      break;
    }
    default:
      throw new Error(`no scenario ${run.scenario} for ${run.client}`);
  }
  await settle(chat, () => chat.resumeStream(), 'resumeStream');
  return { ...out, messages: chat.messages, status: chat.status, error: errorOf(chat.error) };
}

// workflow runs a scenario with @ai-sdk/workflow's WorkflowChatTransport
// under ai 7.0.173's Chat.
async function workflow(run) {
  const rec = new Recorder(true);
  const out = { requests: rec.requests };
  const logs = [];
  const ends = [];
  const transport = (key, api, { page = 1, initialStartIndex } = {}) =>
    new WorkflowChatTransport({
      api: new URL('/api/chat', api).href,
      fetch: rec.fetchOf(page),
      initialStartIndex,
      onChatEnd: ({ chunkIndex }) => ends.push(chunkIndex),
      // The app adds its key; the body is the transport's own, {messages},
      // sent without a Content-Type (fetch labels it text/plain).
      prepareSendMessagesRequest: () => ({ headers: headersOf(key) }),
      prepareReconnectToStreamRequest: () => ({ headers: headersOf(key) }),
    });
  const logged = console.error;
  console.error = (...args) => logs.push(args.map((a) => String(a?.message ?? a)).join(' ').split('\n')[0]);
  try {
    const send = (chat) => chat.sendMessage(userMessage(run.text));
    const ref = newChat(ai7, { id: 'client-chat-id', transport: transport(run.key, run.ref), prefix: 'gen' });
    await settle(ref, () => send(ref), 'the uncut read');
    out.reference = structuredClone(ref.messages);
    out.referenceChunks = ends[0];
    rec.requests.length = 0;
    ends.length = 0;
    logs.length = 0;

    const page1 = newChat(ai7, { id: 'client-chat-id', transport: transport(run.key, run.url), prefix: 'gen' });
    if (run.scenario === 'reload') rec.onBroken = () => page1.stop(); // the page closes at the cut
    await settle(page1, () => send(page1), 'the cut POST');
    rec.onBroken = () => {};
    out.cut = structuredClone(page1.messages);
    out.cutError = errorOf(page1.error);
    let chat = page1;
    if (run.scenario !== 'post-cut') {
      // The new page knows the chat by the id the server gave it (the
      // start chunk's metadata), not the one the old page made up; where
      // the cut came before it, by the POST's x-workflow-run-id.
      let chatId = page1.messages.at(-1)?.metadata?.chatId ?? rec.requests[0]?.runId;
      if (run.scenario === 'unknown') chatId = 'chat-made-up-by-the-client';
      const key = run.scenario === 'no-key' ? '' : run.scenario === 'other-team' ? run.otherKey : run.key;
      const start = run.scenario === 'tail' ? run.tail : undefined;
      const held = run.scenario === 'unknown' ? [] : [userMessage(run.text)];
      chat = newChat(ai7, { id: chatId, transport: transport(key, run.url, { page: 2, initialStartIndex: start }), messages: held, prefix: 'gen2' });
      await settle(chat, () => chat.resumeStream(), 'resumeStream');
    }
    return { ...out, messages: chat.messages, status: chat.status, error: errorOf(chat.error), chunkIndex: ends.at(-1), logs };
  } finally {
    console.error = logged;
  }
}

// V4Chat is the state of ai 4.3.19's useChat (@ai-sdk/react 1.2.12) and
// its triggerRequest, which append and experimental_resume call.
class V4Chat {
  constructor({ id, api, key, fetch, messages = [] }) {
    Object.assign(this, { id, api: new URL('/api/chat', api).href, key, fetch, messages, status: 'ready', error: null });
    this.n = 0;
  }
  async triggerRequest(chatRequest, requestType = 'generate') {
    this.status = 'submitted';
    this.error = null;
    const chatMessages = fillMessageParts(chatRequest.messages);
    this.messages = chatMessages;
    const controller = new AbortController();
    try {
      await callChatApi({
        api: this.api,
        body: {
          id: this.id,
          messages: chatMessages.map(({ role, content, parts }) => ({ role, content, ...(parts !== undefined && { parts }) })),
        },
        streamProtocol: 'data',
        headers: headersOf(this.key),
        abortController: () => controller,
        restoreMessagesOnFailure() {}, // keepLastMessageOnError: true
        onUpdate: ({ message, replaceLastMessage }) => {
          this.status = 'streaming';
          this.messages = [...(replaceLastMessage ? chatMessages.slice(0, -1) : chatMessages), message];
        },
        onFinish() {},
        generateId: () => `gen-${++this.n}`,
        fetch: this.fetch,
        lastMessage: chatMessages[chatMessages.length - 1],
        requestType,
      });
      this.status = 'ready';
    } catch (e) {
      this.error = e;
      this.status = 'error';
    }
  }
  append(text) {
    return this.triggerRequest({ messages: [...this.messages, { id: 'user-1', createdAt: new Date(0), role: 'user', content: text }] });
  }
  experimental_resume() {
    return this.triggerRequest({ messages: this.messages }, 'resume');
  }
  stop() {}
}

// v4Messages drops each message's createdAt: the time of the read
// (processChatResponse's getCurrentDate), which no option fixes.
function v4Messages(messages) {
  return messages.map(({ createdAt, ...m }) => m);
}

// aiSDK4 runs a scenario with ai 4.3.19's useChat.
async function aiSDK4(run) {
  const rec = new Recorder(true);
  const out = { requests: rec.requests };
  const ref = new V4Chat({ id: run.chatId, api: run.ref, key: run.key, fetch: rec.fetchOf(1) });
  await settle(ref, () => ref.append(run.text), 'the uncut read');
  out.reference = v4Messages(structuredClone(ref.messages));
  rec.requests.length = 0;

  const page1 = new V4Chat({ id: run.chatId, api: run.url, key: run.key, fetch: rec.fetchOf(1) });
  await settle(page1, () => page1.append(run.text), 'the cut POST');
  out.cut = v4Messages(structuredClone(page1.messages));
  out.cutError = errorOf(page1.error);
  let chat = page1;
  if (run.scenario !== 'same-page') {
    // useAutoResume (ai 4.3.19's docs) resumes on mount when the last
    // message the server persisted is the user's.
    const key = run.scenario === 'no-key' ? '' : run.scenario === 'other-team' ? run.otherKey : run.key;
    chat = run.scenario === 'unknown'
      ? new V4Chat({ id: 'chat-made-up-by-the-client', api: run.url, key, fetch: rec.fetchOf(2) })
      : new V4Chat({ id: run.chatId, api: run.url, key, fetch: rec.fetchOf(2), messages: [page1.messages[0]] });
  }
  await settle(chat, () => chat.experimental_resume(), 'experimental_resume');
  return { ...out, messages: v4Messages(chat.messages), status: chat.status, error: errorOf(chat.error) };
}

async function main() {
  const runs = JSON.parse(readFileSync(0, 'utf8'));
  const results = [];
  for (const run of runs) {
    let r;
    try {
      if (run.client === 'workflow@2.0.43') r = await workflow(run);
      else if (run.client === 'ai@4.3.19') r = await aiSDK4(run);
      else if (sdks[run.client]) r = await aiSDK(sdks[run.client], run);
      else throw new Error(`no client ${run.client}`);
    } catch (e) {
      r = { harnessError: String(e?.stack ?? e) };
    }
    results.push({ name: run.name, ...r });
  }
  process.stdout.write(JSON.stringify({ node: process.versions.node, results }, null, 1) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
