// outcome.mjs is what an expected file keeps of a run: the requests the
// client sent, the one it waits on (if any), and what its user is left
// with: the chat's messages, its status and the error it shows.

// outcome returns the record of a run. messages are the chat's messages,
// error the chat's error (undefined when none), mock the mock fetch.
export function outcome(messages, status, error, mock) {
  return {
    requests: mock.requests.map(({ method, url }) => ({ method, url })),
    waiting: mock.state.waiting,
    status,
    error: error === undefined || error === null ? null : errorRecord(error),
    messages: JSON.parse(JSON.stringify(messages)),
  };
}

// errorRecord is the name and the message of a thrown value.
export function errorRecord(e) {
  if (!(e instanceof Error)) return { name: typeof e, message: String(e) };
  return { name: e.name, message: e.message };
}
