import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import type { KubeTransport } from './kube-client.ts';
import type { Logger } from './logger.ts';

/** What a request may be answered with before its route runs: undefined lets it through. */
export type AccessRefusal = { status: 401 | 403 | 500; body: string } | undefined;

const userInfoSchema = z.object({
  username: z.string().optional(), uid: z.string().optional(), groups: z.array(z.string()).optional(), extra: z.record(z.string(), z.array(z.string())).optional(),
});
type UserInfo = z.infer<typeof userInfoSchema>;
/** The API server's answers, read only as far as the review needs them. */
const tokenReviewSchema = z.object({ status: z.object({ authenticated: z.boolean().optional(), user: userInfoSchema.optional() }).optional() });
const accessReviewSchema = z.object({ status: z.object({ allowed: z.boolean().optional() }).optional() });

/** controller-runtime's filter caches: a token's user for a minute, an allowed request 5 minutes, a denied one 30 s. */
const AUTHENTICATED_TTL_MS = 60_000;
const ALLOWED_TTL_MS = 300_000;
const DENIED_TTL_MS = 30_000;
const MAX_CACHED = 1_000;

/**
 * controller-runtime's `WithAuthenticationAndAuthorization` for the metrics server, as BMO and
 * CAPM3 serve metrics: the bearer token is checked with a TokenReview, then its user asked for
 * with a SubjectAccessReview on the non-resource path (`get /metrics`), both through the API
 * server, answers cached briefly so a scrape every few seconds costs no API request.
 */
export class MetricsAccessReviewer {
  readonly #transport: KubeTransport;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #users = new Map<string, { user: UserInfo | undefined; until: number }>();
  readonly #decisions = new Map<string, { allowed: boolean; until: number }>();

  constructor(options: { transport: KubeTransport; logger: Logger; clock?: Clock }) {
    this.#transport = options.transport;
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
  }

  async review(request: { authorization: string | undefined; method: string; path: string }): Promise<AccessRefusal> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization ?? '')?.[1];
    if (!token) return { status: 401, body: 'Unauthorized\n' };
    const tokenKey = createHash('sha256').update(token).digest('hex');
    try {
      const user = await this.#authenticate(token, tokenKey);
      if (!user) return { status: 401, body: 'Unauthorized\n' };
      const verb = request.method.toLowerCase();
      if (!(await this.#authorize(user, { tokenKey, verb, path: request.path }))) {
        return { status: 403, body: `Authorization denied for user ${user.username ?? ''} to ${verb} ${request.path}\n` };
      }
      return undefined;
    } catch (error) {
      // Never the token in a log line: only what the API server answered.
      this.#logger.error('metrics access review failed', { path: request.path, error: (error as Error).message });
      return { status: 500, body: 'Internal Server Error\n' };
    }
  }

  async #authenticate(token: string, tokenKey: string): Promise<UserInfo | undefined> {
    const cached = this.#fresh(this.#users, tokenKey);
    if (cached) return cached.user;
    const review = tokenReviewSchema.parse(await this.#transport.request({
      method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    }));
    const user = review.status?.authenticated ? review.status.user ?? {} : undefined;
    this.#remember(this.#users, tokenKey, { user, until: this.#clock.now() + AUTHENTICATED_TTL_MS });
    return user;
  }

  async #authorize(user: UserInfo, request: { tokenKey: string; verb: string; path: string }): Promise<boolean> {
    const key = `${request.tokenKey} ${request.verb} ${request.path}`;
    const cached = this.#fresh(this.#decisions, key);
    if (cached) return cached.allowed;
    const review = accessReviewSchema.parse(await this.#transport.request({
      method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user: user.username, uid: user.uid, groups: user.groups, extra: user.extra, nonResourceAttributes: { path: request.path, verb: request.verb } },
      },
    }));
    const allowed = review.status?.allowed === true;
    this.#remember(this.#decisions, key, { allowed, until: this.#clock.now() + (allowed ? ALLOWED_TTL_MS : DENIED_TTL_MS) });
    return allowed;
  }

  #fresh<T extends { until: number }>(cache: Map<string, T>, key: string): T | undefined {
    const entry = cache.get(key);
    if (entry && entry.until > this.#clock.now()) return entry;
    cache.delete(key);
    return undefined;
  }

  /** Bounded: the oldest entry goes first, so a stream of new tokens cannot grow the process. */
  #remember<T>(cache: Map<string, T>, key: string, value: T): void {
    cache.delete(key);
    cache.set(key, value);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  }
}
