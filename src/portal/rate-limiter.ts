/**
 * Token bucket per API token: `rate` requests per second, bursts up to `rate`.
 * Answers what the RateLimit-* and Retry-After headers need.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Whole seconds until the next request is allowed (Retry-After, RFC 9110 section 10.2.3). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rate: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  take(key: string): RateDecision {
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: this.rate, at: now };
    bucket.tokens = Math.min(this.rate, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const missing = this.rate - bucket.tokens;
    return {
      allowed,
      limit: this.rate,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil(missing / this.rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate)),
    };
  }
}
