import { signingTransport } from '../transport';
import { documensoError } from './documensoShapes';

/**
 * How every request reaches Documenso's API v2 (the document and template routes and the envelope
 * routes alike): its errors, and its rate limit, one budget for them all. 1,000 requests a minute
 * per client on /api/v2, in windows that begin on the minute of Documenso's clock; the request that
 * brings the count to 1,000 is refused already (`count >= max`), so 999 pass, and a 429 carries
 * `Retry-After` (packages/lib/server-only/rate-limit/rate-limit.ts, rate-limits.ts,
 * rate-limit-middleware.ts). Its webhooks wait 10 s for the answer (execute-webhook-call.ts).
 */
export const documensoTransport = signingTransport('Documenso server', documensoError, {
	limit: 999,
	windowMs: 60_000,
	windows: 'fixed',
	senderWaitMs: 10_000,
});
