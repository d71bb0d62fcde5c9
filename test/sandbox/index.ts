import { createBookmarkService } from './bookmark';
import { Deliverer } from './deliveries';
import { listen } from './http';
import { createSigningService } from './signing';
import { createSurveyService } from './survey';

export { SEED } from './seed';

export const DEFAULT_KEYS = {
	signing: 'sandbox-signing-token',
	bookmark: 'sandbox-bookmark-key',
	survey: 'sandbox-survey-key',
};

export interface SandboxOptions {
	host?: string;
	/** 0 (the default) picks a free port. */
	ports?: { signing?: number; bookmark?: number; survey?: number };
	keys?: { signing?: string; bookmark?: string; survey?: string };
	/** Requests per sliding 60 s per key; null for none. The survey service allows 100 by default. */
	rateLimits?: { signing?: number | null; bookmark?: number | null; survey?: number | null };
	seed?: boolean;
	webhookRetryDelayMs?: number;
	webhookTimeoutMs?: number;
	signingWebhookEndpoints?: Array<{ url: string; secret?: string }>;
	logger?: boolean;
}

export interface ServiceHandle {
	url: string;
	apiKey: string;
	port: number;
}

export interface Sandbox {
	signing: ServiceHandle;
	bookmark: ServiceHandle;
	survey: ServiceHandle;
	stop(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const keys = { ...DEFAULT_KEYS, ...options.keys };
	const seed = options.seed ?? true;
	const newDeliverer = () => new Deliverer(options.webhookRetryDelayMs ?? 500, options.webhookTimeoutMs ?? 5_000);
	const signingDeliverer = newDeliverer();
	const surveyDeliverer = newDeliverer();
	const rate = (service: 'signing' | 'bookmark' | 'survey', fallback: number | null) =>
		options.rateLimits?.[service] === undefined ? fallback : options.rateLimits[service]!;

	const signing = createSigningService({
		apiKey: keys.signing,
		rateLimit: rate('signing', null),
		deliverer: signingDeliverer,
		seed,
		endpoints: options.signingWebhookEndpoints ?? [],
		logger: options.logger,
	});
	const bookmark = createBookmarkService({
		apiKey: keys.bookmark,
		rateLimit: rate('bookmark', null),
		seed,
		logger: options.logger,
	});
	const survey = createSurveyService({
		apiKey: keys.survey,
		rateLimit: rate('survey', 100),
		deliverer: surveyDeliverer,
		seed,
		logger: options.logger,
	});

	const handle = async (app: typeof signing.app, port: number | undefined, apiKey: string) => {
		const actual = await listen(app, host, port ?? 0);
		return { url: `http://${host}:${actual}`, apiKey, port: actual };
	};
	const signingHandle = await handle(signing.app, options.ports?.signing, keys.signing);
	signing.baseUrl(signingHandle.url);
	const bookmarkHandle = await handle(bookmark.app, options.ports?.bookmark, keys.bookmark);
	const surveyHandle = await handle(survey.app, options.ports?.survey, keys.survey);

	return {
		signing: signingHandle,
		bookmark: bookmarkHandle,
		survey: surveyHandle,
		stop: async () => {
			signingDeliverer.stop();
			surveyDeliverer.stop();
			await Promise.all([signing.app.close(), bookmark.app.close(), survey.app.close()]);
		},
	};
}
