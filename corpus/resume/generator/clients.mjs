// clients.mjs runs a scenario with one real client: the npm packages'
// own chat, transport and stream processing, with fetch replaced by the
// mock (fetch.mjs).
//
// ai-sdk (ai 5, 6, 7): the release's AbstractChat and DefaultChatTransport,
// driven as useChat({resume: true}) of @ai-sdk/react drives them (chatOf,
// useChatTransport below). workflow: @ai-sdk/workflow 2.0.43's
// WorkflowChatTransport under ai 7.0.173's chat, as useChat drives it.
// ai-sdk-4: ai 4.3.19's experimental_resume, which is useChat's
// triggerRequest (@ai-sdk/react 1.2.12) around callChatApi of
// @ai-sdk/ui-utils 1.2.11 (resumeV4 below).
//
// A scenario's steps run in order: send (the user sends a message),
// resume 'call' (resumeStream(): useChat({resume: true}) on mount, or the
// app's own call) and resume 'visible' (the page becomes visible again:
// the listener of useChat({resume: true}) calls
// chat['~resumeStreamIfDisconnected'](), in the releases that have it;
// before them nothing listens). Each step runs until the chat settles or
// waits on a request or a body that gets no answer.

import { outcome } from './outcome.mjs';
import { mockFetch, settle } from './fetch.mjs';

const API = '/api/chat';

// counter is the chat's generateId: gen-1, gen-2, …, so that the ids a
// client makes up are the same on every run.
function counter() {
  let n = 0;
  return () => `gen-${++n}`;
}

// semver compares release strings "7.0.138".
export function semver(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

// The state useChat keeps the chat's messages in: ReactChatState of
// @ai-sdk/react (src/chat.react.ts, the same in 2.0.0 to 4.0.177 but for
// the snapshot). pushMessage keeps the message object it is given (the
// chat's streaming message, which the stream goes on changing until a
// later write replaces it); replaceMessage keeps a snapshot. The snapshot
// is structuredClone in @ai-sdk/react 2.x, 3.0.0 to 3.0.255 and 4.0.0 to
// 4.0.66; from 3.0.256 and 4.0.67, a copy of the message and of each part.
// The react release that pins ai (its dependency ai: "V") says which:
// 6.0.255 and later (react 3.0.258 and later), 7.0.64 and later (react
// 4.0.67 and later) copy.
class ReactChatState {
  #messages;
  constructor(messages, copy) {
    this.#messages = messages;
    this.status = 'ready';
    this.error = undefined;
    this.snapshot = copy ? copySnapshot : (v) => structuredClone(v);
  }
  get messages() {
    return this.#messages;
  }
  set messages(m) {
    this.#messages = [...m];
  }
  pushMessage = (m) => {
    this.#messages = this.#messages.concat(m);
  };
  popMessage = () => {
    this.#messages = this.#messages.slice(0, -1);
  };
  replaceMessage = (i, m) => {
    this.#messages = [...this.#messages.slice(0, i), this.snapshot(m), ...this.#messages.slice(i + 1)];
  };
}

function copySnapshot(value) {
  if (value == null || typeof value !== 'object' || !('parts' in value) || !Array.isArray(value.parts)) return value;
  const s = { ...value, parts: value.parts.map((p) => ({ ...p })) };
  if ('metadata' in value) {
    const m = value.metadata;
    s.metadata = Array.isArray(m) ? [...m] : m != null && typeof m === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(m)) ? { ...m } : m;
  }
  return s;
}

function copiesSnapshots(release) {
  return (release.startsWith('6.') && semver(release, '6.0.255') >= 0) || (release.startsWith('7.') && semver(release, '7.0.64') >= 0);
}

// chatOf returns a Chat class on the release's AbstractChat with the state
// useChat keeps.
export function chatOf(sdk, release) {
  const copy = copiesSnapshots(release);
  return class Chat extends sdk.AbstractChat {
    constructor({ messages, ...init }) {
      super({ ...init, state: new ReactChatState(messages ?? [], copy) });
    }
  };
}

// useChatTransport is the transport useChat hands its Chat: its own
// object that calls the app's transport (@ai-sdk/react src/use-chat.ts).
// It has a resumeStreamIsReplay getter from @ai-sdk/react 4.0.141 (ai
// 7.0.138) on; @ai-sdk/react 3.0.307 to 3.0.328 (ai 6.0.304 to 6.0.325, the
// releases whose DefaultChatTransport has resumeStreamIsReplay) wrap the
// transport without it, so their chat sees no replay. Releases whose
// transport has no resumeStreamIsReplay behave alike wrapped or not.
export function useChatTransport(transport, release) {
  if (!('resumeStreamIsReplay' in transport) || release.startsWith('5.')) return transport;
  const wrapper = {
    sendMessages: (o) => transport.sendMessages(o),
    reconnectToStream: (o) => transport.reconnectToStream(o),
  };
  if (release.startsWith('7.') && semver(release, '7.0.138') >= 0) {
    Object.defineProperty(wrapper, 'resumeStreamIsReplay', { get: () => transport.resumeStreamIsReplay });
  }
  return wrapper;
}

// runSteps runs the scenario's steps on chat; mock is the mock fetch.
async function runSteps(chat, scenario, mock) {
  for (const step of scenario.steps) {
    let action;
    if (step.send !== undefined) action = chat.sendMessage(structuredClone(step.send));
    else if (step.resume === 'call') action = chat.resumeStream();
    else if (step.resume === 'visible') {
      const listener = chat['~resumeStreamIfDisconnected'];
      action = listener === undefined ? Promise.resolve() : listener({ shouldResume: () => true });
    } else throw new Error(`${scenario.name}: unknown step ${JSON.stringify(step)}`);
    await Promise.race([action, mock.waiting]);
    await settle();
    if (mock.state.waiting !== null) return;
  }
}

// quiet runs fn with console.warn and console.error silenced (the
// workflow transport logs each failed read), and returns what it logged.
async function quiet(fn) {
  const { warn, error } = console;
  const logged = [];
  console.warn = (...a) => logged.push(a.map(String).join(' '));
  console.error = console.warn;
  try {
    return [await fn(), logged];
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

// runAISDK runs an ai-sdk scenario with release's module sdk. driver is
// 'usechat' (the transport as useChat wraps it) or 'chat' (useChat({chat})
// with a Chat the app made: the chat has the transport itself). Chat, when
// given, is the Chat class to use (@ai-sdk/react's own, for the cross-check).
export async function runAISDK(sdk, release, scenario, driver, Chat = chatOf(sdk, release)) {
  const mock = mockFetch(scenario.responses, 'sse');
  const base = new sdk.DefaultChatTransport({ api: API, fetch: mock.fetch });
  const transport = driver === 'usechat' ? useChatTransport(base, release) : base;
  const chat = new Chat({ id: scenario.chatId, messages: structuredClone(scenario.messages), transport, generateId: counter() });
  const [, logged] = await quiet(() => runSteps(chat, scenario, mock));
  if (logged.length > 0) throw new Error(`${scenario.name} ai@${release}: logged ${logged[0]}`);
  return outcome(chat.messages, chat.status, chat.error, mock);
}

// runWorkflow runs a workflow scenario: WorkflowChatTransport (its own
// dependency ai 7.0.112 parses the chunks) under ai 7.0.173's chat.
export async function runWorkflow(workflow, sdk, scenario) {
  const mock = mockFetch(scenario.responses, 'sse');
  const base = new workflow.WorkflowChatTransport({ api: API, fetch: mock.fetch, initialStartIndex: scenario.startIndex ?? 0 });
  const Chat = chatOf(sdk, '7.0.173');
  const chat = new Chat({ id: scenario.chatId, messages: structuredClone(scenario.messages), transport: useChatTransport(base, '7.0.173'), generateId: counter() });
  const [, logged] = await quiet(() => runSteps(chat, scenario, mock));
  return { ...outcome(chat.messages, chat.status, chat.error, mock), logged: logged.length };
}

// runV4 is useChat's experimental_resume in @ai-sdk/react 1.2.12
// (src/use-chat.ts): triggerRequest({messages}, 'resume') with its status,
// its optimistic update and its onUpdate, around callChatApi. The hook's
// SWR state is plain variables here; keepLastMessageOnError is true (the
// default), so restoreMessagesOnFailure changes nothing.
export async function runV4(uiUtils, scenario) {
  const mock = mockFetch(scenario.responses, 'v4');
  const s = { messages: structuredClone(scenario.messages), status: 'ready', error: undefined };
  const generateId = counter();
  const action = (async () => {
    for (const step of scenario.steps) {
      if (step.resume !== 'call') throw new Error(`${scenario.name}: ai-sdk-4 resumes on mount only`);
      s.status = 'submitted';
      s.error = undefined;
      const chatMessages = uiUtils.fillMessageParts(s.messages);
      try {
        s.messages = chatMessages;
        const constructed = chatMessages.map(({ role, content, experimental_attachments, data, annotations, toolInvocations, parts }) => ({
          role,
          content,
          ...(experimental_attachments !== undefined && { experimental_attachments }),
          ...(data !== undefined && { data }),
          ...(annotations !== undefined && { annotations }),
          ...(toolInvocations !== undefined && { toolInvocations }),
          ...(parts !== undefined && { parts }),
        }));
        await uiUtils.callChatApi({
          api: API,
          body: { id: scenario.chatId, messages: constructed, data: undefined },
          streamProtocol: 'data',
          credentials: undefined,
          headers: {},
          abortController: () => null,
          restoreMessagesOnFailure() {},
          onResponse: undefined,
          onUpdate({ message, replaceLastMessage }) {
            s.status = 'streaming';
            s.messages = [...(replaceLastMessage ? chatMessages.slice(0, chatMessages.length - 1) : chatMessages), message];
          },
          onToolCall: undefined,
          onFinish: undefined,
          generateId,
          fetch: mock.fetch,
          lastMessage: chatMessages[chatMessages.length - 1],
          requestType: 'resume',
        });
        s.status = 'ready';
      } catch (err) {
        if (err?.name === 'AbortError') {
          s.status = 'ready';
          continue;
        }
        s.error = err;
        s.status = 'error';
      }
    }
  })();
  await Promise.race([action, mock.waiting]);
  await settle();
  // createdAt (the clock) and revisionId (a new id on every update) are
  // not kept: the v4 message in client/message has neither.
  const messages = s.messages.map(({ createdAt, revisionId, ...m }) => m);
  return outcome(messages, s.status, s.error, mock);
}

