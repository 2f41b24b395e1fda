// Types of the public API (src/index.js), checked by `pnpm typecheck`.
export interface Issue {
  number: number;
  title: string;
  state: "open" | "closed";
  priority: "p0" | "p1" | "p2" | "p3" | null;
  labels: string[];
  /** ms since the epoch */
  createdAt: number;
  closedAt: number | null;
}

export interface RateLimitWindow {
  limit: number;
  remaining: number;
  resetAt: number;
  resetInMs: number;
}

export interface Transport {
  send(request: { method: string; url: string; path: string; headers: Record<string, string>; body?: string }): Promise<{
    status: number;
    headers: Record<string, string>;
    body: unknown;
  }>;
}

export interface ClientOptions {
  token?: string | null;
  transport: Transport;
  baseUrl?: string;
  timeoutMs?: number;
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  jitter?: number;
  pageSize?: number;
  maxPages?: number;
  throttleBelow?: number;
  maxThrottleMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export declare function createClient(options: ClientOptions): {
  readonly rateLimit: RateLimitWindow | null;
  getIssue(project: string, number: number): Promise<Issue>;
  listIssues(project: string, filters?: { state?: string; labels?: string[]; since?: Date; pageSize?: number }): AsyncIterable<Issue>;
  createIssue(project: string, draft: { title: string; body?: string; labels?: string[]; priority?: Issue["priority"] }): Promise<Issue>;
  closeIssue(project: string, number: number): Promise<Issue>;
  deleteIssue(project: string, number: number): Promise<void>;
};
export declare function createFetchTransport(fetchImpl?: typeof fetch): Transport;
