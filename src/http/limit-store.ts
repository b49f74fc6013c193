import LocalStore from '@fastify/rate-limit/store/LocalStore.js';

// The plugin's own in-memory buckets, with each count handed over as it stood when the request
// was counted. Its store hands every request of a bucket one shared object, which the plugin
// reads only after an await: requests counted while others waited (a key looked up in
// PostgreSQL) all read the bucket's last count, and a burst just over the limit was refused whole.

type Counted = (err: Error | null, res?: { current: number; ttl: number }) => void;

interface Store {
  incr(key: string, cb: Counted, timeWindow?: number, max?: number): void;
  child(routeOptions: object): Store;
}

export class CountedStore implements Store {
  private readonly inner: Store;

  constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean } | Store) {
    this.inner =
      'incr' in options ? options : (new LocalStore(options.continueExceeding, options.exponentialBackoff) as Store);
  }

  // The plugin passes the bucket's window and limit, which its own typings leave out.
  incr(key: string, cb: Counted, timeWindow?: number, max?: number): void {
    this.inner.incr(key, (err, res) => cb(err, res && { current: res.current, ttl: res.ttl }), timeWindow, max);
  }

  child(routeOptions: object): Store {
    return new CountedStore(this.inner.child(routeOptions));
  }
}
