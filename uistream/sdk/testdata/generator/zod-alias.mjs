// zod-alias.mjs is a Node module-resolution hook (registered by register.mjs)
// for generate.mjs's child processes. It does two things:
//
//   - ZOD_PACKAGE=zod-4.3 (or zod-3.25) makes every import of 'zod' or
//     'zod/...' load that npm alias instead, so the same ai releases run
//     against the app's zod of another version (ai takes zod as a peer
//     dependency, so the app's zod is the one ai imports);
//   - imports of 'zod/v4' made by @ai-sdk/provider-utils load capture.mjs,
//     which is zod/v4 with safeParseAsync wrapped to keep the schema it is
//     given: the client's uiMessageChunkSchema, as the client runs it.

const CAPTURE = new URL('./capture.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromProviderUtils = /\/(@ai-sdk\/provider-utils|ai-[0-9.]+)\//.test(context.parentURL ?? '');
  if (specifier === 'zod/v4' && fromProviderUtils) {
    return { url: CAPTURE, shortCircuit: true };
  }
  const alias = process.env.ZOD_PACKAGE;
  if (alias && alias !== 'zod' && (specifier === 'zod' || specifier.startsWith('zod/'))) {
    return nextResolve(alias + specifier.slice(3), context);
  }
  return nextResolve(specifier, context);
}
