/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/** Starts the sandbox on fixed ports for demos: `npm run sandbox`. */
import { startSandbox } from './index';

async function main() {
	const sandbox = await startSandbox({
		ports: {
			signing: Number(process.env.SANDBOX_SIGNING_PORT ?? 4101),
			bookmark: Number(process.env.SANDBOX_BOOKMARK_PORT ?? 4102),
			survey: Number(process.env.SANDBOX_SURVEY_PORT ?? 4103),
		},
		signingWebhookEndpoints: process.env.SANDBOX_SIGNING_WEBHOOKS
			? (JSON.parse(process.env.SANDBOX_SIGNING_WEBHOOKS) as Array<{ url: string; secret?: string }>)
			: [],
	});
	const { signing, bookmark, survey } = sandbox;
	process.stdout.write(`${JSON.stringify({ signing, bookmark, survey })}\n`);
	const stop = () => void sandbox.stop().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
