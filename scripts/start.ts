/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The main job: the sandbox of the three services, a real n8n with this package installed
 * from its tarball, credentials pointing at the sandbox, and every sample workflow imported
 * and active. Runs until Ctrl+C.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';

import { OWNER, packPackage, startN8n } from '../test/harness/n8n';
import { RUNTIME_DIR } from '../test/harness/paths';
import {
	deploySamples,
	hasTrigger,
	MCP_TOKEN,
	productionWebhookUrl,
	startDemoSandbox,
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

	const stopAll = async () => {
		await n8n.stop();
		await sandbox.stop();
		process.exit(0);
	};
	process.once('SIGINT', () => void stopAll());
	process.once('SIGTERM', () => void stopAll());

	const workflows = await deploySamples(n8n, sandbox, (node) => productionWebhookUrl(n8n, node));

	say();
	for (const line of bannerLines({
		n8nUrl: n8n.baseUrl,
		login: OWNER,
		workflows: workflows.map((workflow) => ({ name: workflow.name, active: hasTrigger(workflow) })),
		mcpPath: mcpPathsOf(workflows.flatMap((workflow) => workflow.nodes)),
		mcpToken: MCP_TOKEN,
		sandbox,
		logFile: path.relative(process.cwd(), n8n.logFile),
	})) {
		say(line);
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
