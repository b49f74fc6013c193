declare module 'autocannon' {
  interface Result {
    requests: { average: number; total: number };
    latency: { p99: number; average: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(opts: {
    url: string;
    connections: number;
    duration: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    requests?: Array<{
      setupRequest?: (req: { path: string; headers: Record<string, string> }) => {
        path: string;
        headers: Record<string, string>;
      };
    }>;
  }): Promise<Result>;
  export default autocannon;
}
