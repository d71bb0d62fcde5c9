/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * A probe for the README's "Scaling out": the sample workflow "Application approved → signing
 * envelope" in queue mode with a worker at `--concurrency=QUEUE_RACE_CONCURRENCY` (5), and
 * QUEUE_RACE_DELIVERIES (50) deliveries, each sent twice at the same moment, one copy to each
 * webhook process. Prints how many envelopes the sandbox received: with executions that overlap,
 * n8n's Remove Duplicates (a read-modify-write of one database row) lets some copies through.
 * `npx ts-node --transpile-only bench/probes/queueDedupRace.ts` after `npm run build`.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';

import { packPackage } from '../../test/harness/n8n';
import { PROJECT_ROOT } from '../../test/harness/paths';
import {
	activateWorkflow,
	createSandboxCredentials,
	importWorkflow,
	waitUntil,
	type WorkflowFile,
} from '../../test/harness/provision';
import { startQueueN8n } from '../../test/harness/queue';
import { standardWebhookHeaders, startSandbox } from '../../test/sandbox';
import { sandboxControl } from '../../test/unit/helpers/sandbox';

const DELIVERIES = Number(process.env.QUEUE_RACE_DELIVERIES ?? 50);
const WORKER_CONCURRENCY = Number(process.env.QUEUE_RACE_CONCURRENCY ?? 5);

async function main() {
	const sandbox = await startSandbox({ webhookRetryDelayMs: 200 });
	const queue = await startQueueN8n({ packageTarball: await packPackage(), workerConcurrency: WORKER_CONCURRENCY });
	try {
		const credentials = await createSandboxCredentials(queue.main, sandbox);
		const file = path.join(PROJECT_ROOT, 'workflows', 'application-approved-to-signing.json');
		const workflow = await importWorkflow(queue.main, JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile, credentials);
		await activateWorkflow(queue.main, workflow.id);
		const [hook] = (
			await sandboxControl(sandbox, 'survey').call<{ data: Array<{ secret: string }> }>('GET', '/webhooks')
		).data;
		const signer = new Webhook(hook.secret);
		const webhookId = workflow.nodes.find((node) => node.name === 'Application Finished')?.webhookId;
		const urls = queue.webhookProcesses.map((process) => `${process.baseUrl}/webhook/${webhookId}/webhook`);
		const send = async (url: string, id: string, body: string) => {
			const response = await fetch(url, { method: 'POST', headers: standardWebhookHeaders(signer, id, body), body });
			await response.arrayBuffer();
		};
		for (let start = 0; start < DELIVERIES; start += 10) {
			await Promise.all(
				Array.from({ length: Math.min(10, DELIVERIES - start) }, async (_, offset) => {
					const index = start + offset;
					const body = JSON.stringify({
						event: 'responseFinished',
						surveyId: 'srv_residency_2026',
						responseId: `resp_race_${index}`,
						createdAt: new Date().toISOString(),
						data: {
							fullName: `Applicant ${index}`,
							email: `applicant${index}@example.org`,
							portfolio: `https://portfolio.example.org/race/${index}`,
							decision: 'approved',
						},
					});
					await Promise.all(urls.map(async (url) => await send(url, `msg_race_${index}`, body)));
				}),
			);
		}
		await waitUntil('the queue to drain', async () => {
			const jobs = await queue.queuedJobs();
			return jobs.waiting === 0 && jobs.active === 0;
		}, 1_200_000, 1_000);
		const executions = await queue.main.api<{ data: Array<{ status: string }> }>(
			'GET',
			`/executions?workflowId=${workflow.id}&limit=250`,
		);
		const titles = (await sandboxControl(sandbox, 'signing').requests())
			.filter((request) => request.method === 'POST' && /generate-document$/.test(request.path))
			.map((request) => (request.body as { title: string }).title);
		process.stdout.write(
			`${JSON.stringify({
				workerConcurrency: WORKER_CONCURRENCY,
				deliveries: DELIVERIES,
				executions: executions.data.length,
				envelopes: titles.length,
				distinctEnvelopes: new Set(titles).size,
			})}\n`,
		);
	} finally {
		await queue.stop();
		await sandbox.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
