/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The main job: the sandbox of the three services, a real n8n with this package installed
 * from its tarball, credentials pointing at the sandbox, and every sample workflow imported
 * and active. Runs until Ctrl+C. `BOOKMARKS=karakeep`: a real Karakeep in place of the
 * bookmark sandbox, its webhooks sent to the Karakeep sample's trigger.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { startKarakeep } from '../test/harness/karakeep';
import { startKarakeepSpecMock } from '../test/harness/karakeepSpecMock';
import { type N8nInstance, OWNER, packPackage, startN8n } from '../test/harness/n8n';
import { PROJECT_ROOT, RUNTIME_DIR } from '../test/harness/paths';
import {
	activeAfterDeploy,
	createCredential,
	type CredentialRef,
	deploySamples,
	MCP_TOKEN,
	productionWebhookUrl,
	startDemoSandbox,
	type WorkflowFile,
} from '../test/harness/provision';
import { bannerLines, mcpPathsOf } from './banner';

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const say = (line = '') => process.stdout.write(`${line}\n`);

async function main() {
	say('Starting the sandbox of the signing, bookmark and survey services...');
	const sandbox = await startDemoSandbox();

	say('Packing the package and starting n8n with it (about 15 s)...');
	const userFolder = path.join(RUNTIME_DIR, 'demo');
	// A fresh n8n each time keeps the demo reproducible; nothing made in it is kept.
	rmSync(userFolder, { recursive: true, force: true });
	const n8n = await startN8n({ port: N8N_PORT, userFolder, packageTarball: await packPackage() });

	const stops: Array<() => Promise<void>> = [async () => await n8n.stop(), async () => await sandbox.stop()];
	const stopAll = async () => {
		for (const stop of stops) await stop();
		process.exit(0);
	};
	process.once('SIGINT', () => void stopAll());
	process.once('SIGTERM', () => void stopAll());

	const karakeep = process.env.BOOKMARKS === 'karakeep' ? await startKarakeepForSample(n8n, stops) : undefined;
	const credentials = karakeep ? { bookmarkApi: karakeep.credential } : {};
	const workflows = await deploySamples(n8n, sandbox, (node) => productionWebhookUrl(n8n, node), { credentials });

	say();
	for (const line of bannerLines({
		n8nUrl: n8n.baseUrl,
		login: OWNER,
		workflows: workflows.map((workflow) => ({ name: workflow.name, active: activeAfterDeploy(workflow, credentials) })),
		mcpPath: mcpPathsOf(workflows.flatMap((workflow) => workflow.nodes)),
		mcpToken: MCP_TOKEN,
		sandbox,
		karakeep: karakeep?.banner,
		logFile: path.relative(process.cwd(), n8n.logFile),
	})) {
		say(line);
	}
}

/** The Karakeep sample's trigger, whose production URL Karakeep is to send its webhooks to. */
const KARAKEEP_SAMPLE = path.join(PROJECT_ROOT, 'workflows', 'karakeep-bookmark-events.json');

/**
 * A real Karakeep (its REST API and webhook worker) whose webhook posts to the Karakeep sample's
 * trigger, known before the sample is imported (a fixed webhookId), with a token of this run; and
 * the Bookmark credential for it, through the validating mock of Karakeep's spec, which answers
 * search (Karakeep's needs Meilisearch, which does not run here).
 */
async function startKarakeepForSample(n8n: N8nInstance, stops: Array<() => Promise<void>>) {
	const sample = JSON.parse(readFileSync(KARAKEEP_SAMPLE, 'utf8')) as WorkflowFile;
	const trigger = sample.nodes.find((node) => node.type.endsWith('.bookmarksWebhookTrigger'));
	if (!trigger) throw new Error(`${KARAKEEP_SAMPLE} has no Bookmarks Webhook Trigger`);
	const token = randomBytes(18).toString('base64url');
	say('Starting the real Karakeep, its webhook pointed at the Karakeep sample (about 10 s)...');
	const karakeep = await startKarakeep({ webhook: { url: productionWebhookUrl(n8n, trigger), token } });
	stops.unshift(async () => await karakeep.stop());
	const mock = await startKarakeepSpecMock({ upstream: karakeep });
	stops.unshift(async () => await mock.stop());
	const credential: CredentialRef = await createCredential(n8n, 'Karakeep (local)', 'bookmarkApi', {
		api: 'karakeep',
		baseUrl: mock.url,
		apiKey: karakeep.apiKey,
		webhookToken: token,
	});
	return { credential, banner: { url: karakeep.url, apiKey: karakeep.apiKey, searchUrl: mock.url } };
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
