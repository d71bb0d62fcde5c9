/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * `npm start` in n8n queue mode: the sandbox of the three services, Redis, Postgres, the n8n
 * main process, two workers at concurrency 5 and two webhook processes behind nginx (round
 * robin), each with this package installed from its tarball; credentials pointing at the sandbox,
 * the event claims' database and credential, and the sample workflows (the queue-mode variants
 * of workflows/queue/ where there is one) imported and active. Runs until Ctrl+C; all data is
 * thrown away.
 */
import { CLAIMS_DATABASE, queueModeSampleFiles, setUpEventClaims } from '../test/harness/claims';
import { OWNER, packPackage } from '../test/harness/n8n';
import { deploySamples, startDemoSandbox } from '../test/harness/provision';
import { startQueueN8n } from '../test/harness/queue';

const WORKERS = 2;
const WORKER_CONCURRENCY = 5;

const say = (line = '') => process.stdout.write(`${line}\n`);

async function main() {
	say('Starting the sandbox of the signing, bookmark and survey services...');
	const sandbox = await startDemoSandbox();

	say(`Starting Redis, Postgres, n8n main, ${WORKERS} workers, two webhook processes and nginx (1 to 3 minutes)...`);
	const queue = await startQueueN8n({
		packageTarball: await packPackage(),
		workers: WORKERS,
		workerConcurrency: WORKER_CONCURRENCY,
		ports: {
			// 0 picks a free port.
			main: Number(process.env.N8N_PORT ?? 5678) || undefined,
			proxy: Number(process.env.QUEUE_PROXY_PORT ?? 5680) || undefined,
		},
	});

	const stopAll = async () => {
		await queue.stop();
		await sandbox.stop();
		process.exit(0);
	};
	process.once('SIGINT', () => void stopAll());
	process.once('SIGTERM', () => void stopAll());

	const postgres = await setUpEventClaims(queue);
	// The load balancer's URL, as an administrator would enter it in the signing service.
	const workflows = await deploySamples(
		queue.main,
		sandbox,
		(node) => `${queue.proxyUrl}/webhook/${node.webhookId}/webhook`,
		{ files: queueModeSampleFiles(), credentials: { postgres } },
	);

	say();
	say(`n8n (queue mode) is ready`);
	say(`  editor:            ${queue.main.baseUrl}  (also through the proxy: ${queue.proxyUrl})`);
	say(`  login:             ${OWNER.email} / ${OWNER.password}`);
	say(`  webhooks (proxy):  ${queue.proxyUrl}/webhook/…  round robin to ${queue.webhookProcesses.map((p) => p.baseUrl).join(' and ')}`);
	for (const [index, worker] of queue.workers().entries()) {
		say(`  worker ${index + 1}:          ${worker ? `${worker.baseUrl}/healthz` : '(not running)'}, concurrency ${queue.workerConcurrency}`);
	}
	say(`  event claims:      Postgres ${queue.postgres.host}:${queue.postgres.port}, database ${CLAIMS_DATABASE} (credential "${postgres.name}")`);
	say(`  workflows:         ${workflows.map((w) => w.name).join(', ') || '(none in workflows/)'}`);
	say(`Signing sandbox:     ${sandbox.signing.url}  (token ${sandbox.signing.apiKey})`);
	say(`Bookmark sandbox:    ${sandbox.bookmark.url}  (key ${sandbox.bookmark.apiKey})`);
	say(`Survey sandbox:      ${sandbox.survey.url}  (key ${sandbox.survey.apiKey})`);
	say(`Logs (n8n processes, nginx, Redis, Postgres): ${queue.logDir}`);
	say();
	say('Press Ctrl+C to stop everything.');
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
