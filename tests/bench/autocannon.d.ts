// The parts of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  type RawRequest = { method?: string; path?: string; body?: string | Buffer; headers?: Record<string, string> };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Array<
      RawRequest & { setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest }
    >;
  };
  type Histogram = { average: number; p50: number; p99: number; total: number };
  type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number };
  export default function autocannon(options: Options): Promise<Result>;
}
