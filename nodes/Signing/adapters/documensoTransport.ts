import type { RatePolicy } from '../../shared/rateBudget';
import { signingTransport } from '../transport';
import { documensoError } from './documensoShapes';

/**
 * How every request reaches Documenso's API v2 (the document and template routes and the envelope
 * routes alike): its errors, and its rate limit, one budget for them all. 1,000 requests a minute
 * on /api/v2 per client address, whatever the key (apps/remix/server/router.ts: apiV2RateLimit
 * without an identifier, counted by the IP of `X-Forwarded-For` and the like), in windows that
 * begin on the minute of Documenso's clock; refused once `count > max`, so 1,000 pass, and a 429
 * carries `Retry-After` (packages/lib/server-only/rate-limit/rate-limit.ts, rate-limits.ts,
 * rate-limit-middleware.ts). Its webhooks wait 10 s for the answer (execute-webhook-call.ts).
 */
export const DOCUMENSO_RATE: RatePolicy = {
	limit: 1_000,
	windowMs: 60_000,
	windows: 'fixed',
	countedPer: 'client',
	senderWaitMs: 10_000,
};

export const documensoTransport = signingTransport('Documenso server', documensoError, DOCUMENSO_RATE);
