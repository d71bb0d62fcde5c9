/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The main job: the sandbox of the three services, a real n8n with this package installed
 * from its tarball, credentials pointing at the sandbox, and every sample workflow imported
 * and active. Runs until Ctrl+C. `BOOKMARKS=karakeep`: a real Karakeep in place of the
 * bookmark sandbox (and its credential in place of the sandbox's), its webhooks sent to the
 * Karakeep sample's trigger, a few demo records in it. `SURVEYS=formbricks`: the survey sandbox
 * speaks Formbricks, and an SMTP sink takes the contacts sample's e-mails.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { startKarakeep } from '../test/harness/karakeep';
import { seedKarakeep } from '../test/harness/karakeepSeed';
import { startKarakeepSpecMock } from '../test/harness/karakeepSpecMock';
import { type N8nInstance, OWNER, packPackage, startN8n } from '../test/harness/n8n';
import { PROJECT_ROOT, RUNTIME_DIR } from '../test/harness/paths';
import {
	activeAfterDeploy,
	createCredential,
	createSmtpSinkCredential,
	type CredentialRef,
	deploySamples,
	MCP_TOKEN,
	productionWebhookUrl,
	startDemoSandbox,
	withSignedPdfKept,
	type WorkflowFile,
} from '../test/harness/provision';
import { startSmtpSink } from '../test/harness/smtpSink';
import { bannerLines, KARAKEEP_CREDENTIAL, mcpPathsOf } from './banner';

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
	// The contacts sample e-mails each new applicant (n8n's Send Email node): here to a sink that keeps them.
	const smtp = sandbox.survey.api === 'formbricks' ? await startSmtpSinkForSample(n8n, userFolder, stops) : undefined;
	const credentials = {
		...(karakeep ? { bookmarkApi: karakeep.credential } : {}),
		...(smtp ? { smtp: smtp.credential } : {}),
	};
	const workflows = await deploySamples(n8n, sandbox, (node) => productionWebhookUrl(n8n, node), {
		credentials,
		adapt: karakeep ? withSignedPdfKept : undefined,
	});
	if (karakeep) {
		say('Adding a few demo records to Karakeep (the bookmark sandbox’s)...');
		await seedKarakeep(karakeep.server);
	}

	say();
	for (const line of bannerLines({
		n8nUrl: n8n.baseUrl,
		login: OWNER,
		workflows: workflows.map((workflow) => ({ name: workflow.name, active: activeAfterDeploy(workflow, credentials) })),
		mcpPath: mcpPathsOf(workflows.flatMap((workflow) => workflow.nodes)),
		mcpToken: MCP_TOKEN,
		sandbox,
		karakeep: karakeep?.banner,
		smtp: smtp?.banner,
		logFile: path.relative(process.cwd(), n8n.logFile),
	})) {
		say(line);
	}
}

/** The Karakeep sample's trigger, whose production URL Karakeep is to send its webhooks to. */
const KARAKEEP_SAMPLE = path.join(PROJECT_ROOT, 'workflows', 'karakeep-bookmark-events.json');
/** Fixed, so that a browser tab or a credential copied elsewhere still works after a restart. */
const KARAKEEP_PORT = Number(process.env.KARAKEEP_PORT ?? 4104);
const KARAKEEP_SEARCH_PORT = Number(process.env.KARAKEEP_SEARCH_PORT ?? 4105);
const SMTP_SINK_PORT = Number(process.env.SMTP_SINK_PORT ?? 4106);

/**
 * A real Karakeep (its REST API and webhook worker) whose webhook posts to the Karakeep sample's
 * trigger, known before the sample is imported (a fixed webhookId), with a token of this run; and
 * the Bookmark credential for it, the only one of the Bookmarks node here. The credential goes
 * through a proxy of Karakeep's spec that also answers search: Karakeep searches with Meilisearch,
 * which the demo does not run.
 */
async function startKarakeepForSample(n8n: N8nInstance, stops: Array<() => Promise<void>>) {
	const sample = JSON.parse(readFileSync(KARAKEEP_SAMPLE, 'utf8')) as WorkflowFile;
	const trigger = sample.nodes.find((node) => node.type.endsWith('.bookmarksWebhookTrigger'));
	if (!trigger) throw new Error(`${KARAKEEP_SAMPLE} has no Bookmarks Webhook Trigger`);
	const token = randomBytes(18).toString('base64url');
	say('Starting Karakeep, its webhooks sent to the Karakeep sample (about 10 s)...');
	const karakeep = await startKarakeep({ port: KARAKEEP_PORT, webhook: { url: productionWebhookUrl(n8n, trigger), token } });
	stops.unshift(async () => await karakeep.stop());
	const proxy = await startKarakeepSpecMock({ upstream: karakeep, port: KARAKEEP_SEARCH_PORT });
	stops.unshift(async () => await proxy.stop());
	const credential: CredentialRef = await createCredential(n8n, KARAKEEP_CREDENTIAL, 'bookmarkApi', {
		api: 'karakeep',
		baseUrl: proxy.url,
		apiKey: karakeep.apiKey,
		webhookToken: token,
	});
	return {
		server: karakeep,
		credential,
		banner: { url: karakeep.url, apiKey: karakeep.apiKey, searchUrl: proxy.url, credential: credential.name },
	};
}

/** An SMTP sink on 127.0.0.1 that writes each e-mail into mails/ of n8n's folder, and n8n's SMTP credential for it. */
async function startSmtpSinkForSample(n8n: N8nInstance, userFolder: string, stops: Array<() => Promise<void>>) {
	const folder = path.join(userFolder, 'mails');
	const sink = await startSmtpSink({ port: SMTP_SINK_PORT, folder });
	stops.unshift(async () => await sink.close());
	const credential = await createSmtpSinkCredential(n8n, sink);
	return {
		credential,
		banner: { address: `${sink.host}:${sink.port}`, folder: path.relative(process.cwd(), folder), credential: credential.name },
	};
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
