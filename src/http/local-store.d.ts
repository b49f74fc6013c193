// The in-memory store @fastify/rate-limit keeps buckets in; the package declares no types for it.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  const LocalStore: new (continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number) => unknown;
  export default LocalStore;
}
