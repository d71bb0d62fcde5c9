/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Starts the sandbox on fixed ports for demos and manual tests: `npm run sandbox`.
 * Prints one JSON line with each service's URL and key once all three listen.
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

/** The machine's clock unless SANDBOX_CLOCK=manual: then time moves only by POST /_sandbox/clock/advance. */
function clock(): Clock {
	const value = process.env.SANDBOX_CLOCK ?? 'system';
	if (value === 'system') return systemClock;
	if (value === 'manual') return new ManualClock();
	throw new Error(`SANDBOX_CLOCK must be "system" or "manual", not "${value}"`);
}

async function main() {
	const sandbox = await startSandbox({
		ports: {
			signing: port('SANDBOX_SIGNING_PORT', 4101),
			bookmark: port('SANDBOX_BOOKMARK_PORT', 4102),
			survey: port('SANDBOX_SURVEY_PORT', 4103),
		},
		signingWebhookEndpoints: signingWebhooks(),
		clock: clock(),
	});
	const summary = Object.fromEntries(
		(['signing', 'bookmark', 'survey'] as const).map((name) => [
			name,
			{ url: sandbox[name].url, apiKey: sandbox[name].apiKey },
		]),
	);
	process.stdout.write(`${JSON.stringify(summary)}\n`);
	const stop = () => void sandbox.stop().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
