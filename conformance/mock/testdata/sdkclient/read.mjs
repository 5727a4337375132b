// read.mjs reads streams of the chatwire mock speaking the UI message
// stream (chatwire serve -protocol ui, or mock.New with protocol.UI) with
// the real AI SDK clients installed here (package.json: the newest and the
// oldest strict release of ai 5, 6 and 7), each through its own path: the
// release's DefaultChatTransport.sendMessages POSTs to the mock (its fetch,
// its parseJsonEventStream with uiMessageChunkSchema), and its
// readUIMessageStream assembles the message, as useChat does.
//
//   npm ci && node read.mjs < cases.json > readings.json
//
// cases.json is [{"name", "url", "key", "body"}]: url the mock's base URL,
// key the API key, body the request body as JSON (the mock's own request
// schema: prepareSendMessagesRequest replaces the transport's
// {id, messages, trigger} with it). The output is
// {"node", "clients": [release…], "cases": [{"name", "readings": {release:
// {"message": the last message yielded (JSON.stringify), "error":
// {"name", "message"} of the first error that ended the reading, or null}}}]}.
// Every request has a time limit; a hung stream is an error, not a hang.

import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const clients = Object.keys(pkg.dependencies).filter((d) => d.startsWith('ai-'));
const TIMEOUT_MS = 20_000;

// readCase reads one case with one client release.
async function readCase(sdk, c) {
  const abort = AbortSignal.timeout(TIMEOUT_MS);
  const transport = new sdk.DefaultChatTransport({
    api: new URL('/api/chat', c.url).href,
    headers: { Authorization: `Bearer ${c.key}` },
    prepareSendMessagesRequest: () => ({ body: c.body }),
  });
  const errors = [];
  let message = null;
  try {
    const chunks = await transport.sendMessages({
      chatId: 'chat-under-test',
      messages: [{ id: 'user-1', role: 'user', parts: [{ type: 'text', text: String(c.body.content) }] }],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: abort,
    });
    for await (const m of sdk.readUIMessageStream({ stream: chunks, onError: (e) => errors.push(e) })) {
      message = JSON.stringify(m);
    }
  } catch (e) {
    errors.push(e);
  }
  const e = errors[0];
  return {
    message,
    error: e === undefined ? null : { name: e?.name ?? typeof e, message: String(e?.message ?? e) },
  };
}

async function main() {
  const cases = JSON.parse(readFileSync(0, 'utf8'));
  const sdks = {};
  for (const alias of clients) sdks[alias.slice(3)] = await import(alias);
  const out = { node: process.versions.node, clients: Object.keys(sdks), cases: [] };
  for (const c of cases) {
    const readings = {};
    for (const [release, sdk] of Object.entries(sdks)) readings[release] = await readCase(sdk, c);
    out.cases.push({ name: c.name, readings });
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
