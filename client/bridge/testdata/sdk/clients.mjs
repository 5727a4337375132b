// clients.mjs runs the real AI SDK clients against chatwire's bridge, for
// client/bridge's TestRealClients. It reads a JSON array of requests on
// standard input, {client, api, body}, and writes a JSON array of results
// on standard output, one per request:
//
//   client "ui": ai 7.0.173's DefaultChatTransport posts {id, messages,
//     trigger, ...body} (the last message a user message with body.prompt
//     as its text) and readUIMessageStream reads the response; the result
//     is {message, errors} with the message it last yielded.
//   client "v4": ai 4's callChatApi (@ai-sdk/ui-utils 1.2.11, which ai
//     4.3.19 depends on) posts body as it is; the result is {message, data}
//     as its last onUpdate gave them, or {error} where it throws.
//
// The key comes from CHATWIRE_API_KEY and is sent as the Authorization
// header; nothing here prints it.
import { readFileSync } from 'node:fs';
import { DefaultChatTransport, readUIMessageStream } from 'ai-7.0.173';
import { callChatApi } from '@ai-sdk/ui-utils';

const ai4 = JSON.parse(readFileSync(new URL('./node_modules/ai-4.3.19/package.json', import.meta.url)));
if (ai4.dependencies['@ai-sdk/ui-utils'] !== '1.2.11') {
  throw new Error(`ai 4.3.19 wants @ai-sdk/ui-utils ${ai4.dependencies['@ai-sdk/ui-utils']}, not 1.2.11`);
}
const headers = { Authorization: `Bearer ${process.env.CHATWIRE_API_KEY ?? ''}` };

async function ui({ api, body }) {
  const { prompt, ...rest } = body;
  const transport = new DefaultChatTransport({ api, headers });
  const errors = [];
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-bridge-test',
    messageId: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: prompt }] }],
    abortSignal: AbortSignal.timeout(30000),
    body: rest,
  });
  let message = null;
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(String(e?.message ?? e)) })) {
    message = m;
  }
  return { message, errors };
}

async function v4({ api, body }) {
  let last = { message: null, data: [] };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30000);
  try {
    await callChatApi({
      api,
      body,
      streamProtocol: 'data',
      headers,
      abortController: () => controller,
      restoreMessagesOnFailure() {},
      onUpdate({ message, data }) {
        last = { message: structuredClone(message), data: structuredClone(data ?? []) };
      },
      onFinish() {},
      generateId: () => 'generated-id',
      lastMessage: undefined,
      requestType: 'generate',
    });
  } catch (e) {
    return { ...last, error: String(e?.message ?? e) };
  } finally {
    clearTimeout(timer);
  }
  return last;
}

const requests = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const r of requests) {
  try {
    results.push(r.client === 'ui' ? await ui(r) : await v4(r));
  } catch (e) {
    results.push({ error: String(e?.stack ?? e) });
  }
}
process.stdout.write(JSON.stringify(results));
