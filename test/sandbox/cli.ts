/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Starts the sandbox on fixed ports for demos and manual tests: `npm run sandbox`.
 * Prints one JSON line with each service's URL and key once all three listen.
 * SANDBOX_SIGNING_API=documenso makes the signing service a Documenso (test/sandbox/documenso/),
 * SANDBOX_SURVEY_API=formbricks the survey service a Formbricks (test/sandbox/formbricks/),
 * SANDBOX_CLOCK=manual their time one that moves only when told to (README.md, Time).
 */
import { type Clock, ManualClock, startSandbox, systemClock } from './index';

function port(variable: string, fallback: number): number {
	const value = process.env[variable] ?? String(fallback);
	if (!/^\d+$/.test(value) || Number(value) > 65_535) {
		throw new Error(`${variable} must be a port number, not "${value}"`);
	}
	return Number(value);
}

function signingWebhooks(): Array<{ url: string; secret?: string }> {
	const value = process.env.SANDBOX_SIGNING_WEBHOOKS;
	if (!value) return [];
	const endpoints = JSON.parse(value) as unknown;
	const valid =
		Array.isArray(endpoints) &&
		endpoints.every(
			(endpoint: { url?: unknown; secret?: unknown }) =>
				typeof endpoint?.url === 'string' &&
				['string', 'undefined'].includes(typeof endpoint.secret),
		);
	if (!valid) {
		throw new Error('SANDBOX_SIGNING_WEBHOOKS must be a JSON array of {"url", "secret"?}');
	}
	return endpoints as Array<{ url: string; secret?: string }>;
}

/**
 * Which API a service speaks, from its environment variable (the first is the default):
 * SANDBOX_SIGNING_API=documenso (documenso/README.md; SANDBOX_DOCUMENSO_ROUTES=all or before-envelopes
 * for a Documenso that still serves its deprecated routes, or one older than the envelope API), SANDBOX_SURVEY_API=formbricks (formbricks/README.md).
 */
function chosenApi<T extends string>(variable: string, apis: readonly T[]): T {
	const value = process.env[variable] ?? apis[0];
	if (!apis.includes(value as T)) {
		throw new Error(`${variable} must be ${apis.map((api) => `"${api}"`).join(' or ')}, not "${value}"`);
	}
	return value as T;
}

/** The machine's clock unless SANDBOX_CLOCK=manual: then time moves only by POST /_sandbox/clock/advance. */
function clock(): Clock {
	const value = process.env.SANDBOX_CLOCK ?? 'system';
	if (value === 'system') return systemClock;
	if (value === 'manual') return new ManualClock();
	throw new Error(`SANDBOX_CLOCK must be "system" or "manual", not "${value}"`);
}

async function main() {
	const apis = {
		signing: chosenApi('SANDBOX_SIGNING_API', ['documented', 'documenso'] as const),
		survey: chosenApi('SANDBOX_SURVEY_API', ['documented', 'formbricks'] as const),
	};
	const documensoRoutes = chosenApi('SANDBOX_DOCUMENSO_ROUTES', ['after-march-2027', 'all', 'before-envelopes'] as const);
	const sandbox = await startSandbox({
		signing: apis.signing,
		documensoRoutes,
		ports: {
			signing: port('SANDBOX_SIGNING_PORT', 4101),
			bookmark: port('SANDBOX_BOOKMARK_PORT', 4102),
			survey: port('SANDBOX_SURVEY_PORT', 4103),
		},
		signingWebhookEndpoints: signingWebhooks(),
		survey: apis.survey,
		clock: clock(),
	});
	const summary: Record<string, Record<string, string>> = Object.fromEntries(
		(['signing', 'bookmark', 'survey'] as const).map((name) => [
			name,
			{ url: sandbox[name].url, apiKey: sandbox[name].apiKey },
		]),
	);
	// A service that speaks a real platform's API says which in its entry.
	for (const [name, api] of Object.entries(apis)) {
		if (api !== 'documented') summary[name] = { ...summary[name], api };
	}
	// Which of Documenso's routes its flavour answers: after March 2027 unless the environment says otherwise.
	if (apis.signing === 'documenso') summary.signing = { ...summary.signing, routes: documensoRoutes };
	process.stdout.write(`${JSON.stringify(summary)}\n`);
	const stop = () => void sandbox.stop().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
