/**
 * The sandbox: local simulators of the signing, bookmark and survey services, each a fastify
 * server of its own, following /work/shared/CONTRACTS.md. Control endpoints under /_sandbox/
 * (no auth) let tests inspect requests, inject faults and act as recipients or respondents.
 */
import { createBookmarkService } from './bookmark';
import { Deliverer } from './deliveries';
import { createFormbricksService } from './formbricks';
import { DOCUMENSO_ATTEMPTS, DOCUMENSO_WEBHOOK_TIMEOUT_MS } from './documenso/webhooks';
import { listen, type Service } from './service';
import { createSigningService } from './signing';
import { createSurveyService } from './survey';
import { type Clock, systemClock } from './timers';

export { SEED, SEED_COUNTS } from './seed';
export { FORMBRICKS_SEED, FORMBRICKS_SEED_COUNTS } from './formbricks';
export { DOCUMENSO_SEED } from './documenso/seed';
export { standardWebhookHeaders } from './survey';
export type { RecordedRequest } from './service';
export type { DeliveryAttempt } from './deliveries';
export { ManualClock, systemClock, type Clock, type PendingWait, type WaitPurpose } from './timers';

export const DEFAULT_KEYS = {
	signing: 'sandbox-signing-token',
	bookmark: 'sandbox-bookmark-key',
	survey: 'sandbox-survey-key',
};

/** The signing key when the signing service is Documenso (whose API tokens start with `api_`). */
export const DOCUMENSO_DEFAULT_KEY = 'api_sandboxdocumensotoken';

export interface SandboxOptions {
	host?: string;
	/**
	 * Which API the signing service speaks: the documented one (the default) or Documenso's API v2
	 * (test/sandbox/documenso/README.md).
	 */
	signing?: 'documented' | 'documenso';
	/**
	 * For `signing: 'documenso'`: which of Documenso's routes it serves (documenso/service.ts,
	 * `DocumensoRouteMode`); `after-march-2027` by default, the deprecated document and template
	 * routes gone.
	 */
	documensoRoutes?: 'after-march-2027' | 'all' | 'before-envelopes';
	/** 0 (the default) picks a free port. */
	ports?: { signing?: number; bookmark?: number; survey?: number };
	keys?: { signing?: string; bookmark?: string; survey?: string };
	/** Requests per sliding 60 s per key; null for none. Only the survey service has one by default (100). */
	rateLimits?: { signing?: number | null; bookmark?: number | null; survey?: number | null };
	/** Demo data; true by default. */
	seed?: boolean;
	/** Between two attempts of one webhook delivery; 500 by default. */
	webhookRetryDelayMs?: number;
	/** How long a receiver may take to answer one attempt; 5000 by default, as the contract says (Documenso: 10000). */
	webhookTimeoutMs?: number;
	/** Endpoints the signing service's administrator configured before the start. */
	signingWebhookEndpoints?: Array<{ url: string; secret?: string }>;
	/**
	 * Which API the survey service speaks: the documented one (the default) or Formbricks'
	 * (formbricks/README.md; its webhook retries wait `webhookRetryDelayMs`, then twice that,
	 * 5000 ms when not given, as Formbricks).
	 */
	survey?: 'documented' | 'formbricks';
	/**
	 * For `survey: 'formbricks'`: a workspace that was an environment before Formbricks 5; the
	 * residency and erasure surveys with the question ids the sample workflows read (`npm start`).
	 */
	formbricks?: { legacyEnvironmentId?: boolean; publicUrl?: string; sampleQuestionIds?: boolean };
	/**
	 * The time of all three services: rate-limit windows, Retry-After, webhook retries and
	 * timeouts, fault delays, latency, and the times in records and logs. The machine's clock by
	 * default; a test passes a ManualClock to move time itself (see README.md, Time).
	 */
	clock?: Clock;
	logger?: boolean;
}

export interface ServiceHandle {
	url: string;
	apiKey: string;
	port: number;
	/** The API the service speaks, as the credential's API option names it. */
	api: string;
}

export interface Sandbox {
	signing: ServiceHandle;
	bookmark: ServiceHandle;
	survey: ServiceHandle;
	clock: Clock;
	/** Webhook deliveries not yet tried to the end, both services together (see Deliverer.pending). */
	pendingDeliveries(): number;
	/** Closes the servers and cancels pending webhook deliveries. */
	stop(): Promise<void>;
}

const DEFAULT_RATE_LIMITS = { signing: null, bookmark: null, survey: 100 };

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const documenso = options.signing === 'documenso';
	const keys = {
		...DEFAULT_KEYS,
		...(documenso ? { signing: DOCUMENSO_DEFAULT_KEY } : {}),
		...options.keys,
	};
	const seed = options.seed ?? true;
	const clock = options.clock ?? systemClock;
	const rateLimit = (service: keyof typeof DEFAULT_RATE_LIMITS) =>
		options.rateLimits?.[service] === undefined
			? DEFAULT_RATE_LIMITS[service]
			: options.rateLimits[service];
	const delivery = {
		retryDelayMs: options.webhookRetryDelayMs ?? 500,
		timeoutMs: options.webhookTimeoutMs ?? 5_000,
		clock,
	};
	const deliverers = [
		new Deliverer(
			documenso
				? {
						retryDelayMs: delivery.retryDelayMs,
						timeoutMs: options.webhookTimeoutMs ?? DOCUMENSO_WEBHOOK_TIMEOUT_MS,
						maxAttempts: DOCUMENSO_ATTEMPTS,
						clock,
					}
				: delivery,
		),
		new Deliverer(delivery),
	];
	const [signingDeliverer, surveyDeliverer] = deliverers;

	const signingOptions = {
		apiKey: keys.signing,
		rateLimit: rateLimit('signing'),
		deliverer: signingDeliverer,
		clock,
		seed,
		endpoints: options.signingWebhookEndpoints ?? [],
		logger: options.logger,
		routes: options.documensoRoutes,
	};
	// Loaded only when asked for: Documenso's SDK schemas cost a start that does not need them.
	const signing: Service & { setPublicUrl?(url: string): void } = documenso
		? (await import('./documenso/service')).createDocumensoService(signingOptions)
		: createSigningService(signingOptions);
	const bookmark = createBookmarkService({
		apiKey: keys.bookmark,
		rateLimit: rateLimit('bookmark'),
		clock,
		seed,
		logger: options.logger,
	});
	const survey =
		options.survey === 'formbricks'
			? await createFormbricksService({
					apiKey: keys.survey,
					rateLimit: rateLimit('survey'),
					deliverer: surveyDeliverer,
					clock,
					seed,
					backoffDelayMs: options.webhookRetryDelayMs,
					logger: options.logger,
					...options.formbricks,
				})
			: createSurveyService({
					apiKey: keys.survey,
					rateLimit: rateLimit('survey'),
					deliverer: surveyDeliverer,
					clock,
					seed,
					logger: options.logger,
				});
	const services = [signing, bookmark, survey];

	const stop = async () => {
		for (const deliverer of deliverers) deliverer.stop();
		await Promise.all(services.map(async ({ app }) => await app.close()));
	};
	const start = async (
		{ app }: Service,
		port: number | undefined,
		apiKey: string,
		api: string,
	): Promise<ServiceHandle> => {
		const actual = await listen(app, host, port ?? 0);
		return { url: `http://${host}:${actual}`, apiKey, port: actual, api };
	};

	let started = false;
	try {
		const handles = {
			signing: await start(signing, options.ports?.signing, keys.signing, options.signing ?? 'documented'),
			bookmark: await start(bookmark, options.ports?.bookmark, keys.bookmark, 'documented'),
			survey: await start(survey, options.ports?.survey, keys.survey, options.survey ?? 'documented'),
		};
		signing.setPublicUrl?.(handles.signing.url);
		started = true;
		const pendingDeliveries = () =>
			deliverers.reduce((sum, deliverer) => sum + deliverer.pending, 0);
		return { ...handles, clock, pendingDeliveries, stop };
	} finally {
		// A port in use must not leave the other servers listening.
		if (!started) await stop();
	}
}
