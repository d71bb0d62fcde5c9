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
	activateWorkflow,
	createSandboxCredentials,
	hasTrigger,
	importWorkflowFiles,
	nodesOfType,
	productionWebhookUrl,
	SIGNING_WEBHOOK_SECRET,
} from '../test/harness/provision';
import { startSandbox } from '../test/sandbox';
import { bannerLines, mcpPathOf } from './banner';

// The bearer token of the sample MCP server. The privacy branch adds `MCP_TOKEN` to
// test/harness/provision.ts (with the credential npm start creates): import it from there then.
const MCP_TOKEN = 'sandbox-mcp-token';

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const say = (line = '') => process.stdout.write(`${line}\n`);

async function main() {
	say('Starting the sandbox of the signing, bookmark and survey services...');
	const sandbox = await startSandbox({
		ports: {
			signing: Number(process.env.SANDBOX_SIGNING_PORT ?? 4101),
			bookmark: Number(process.env.SANDBOX_BOOKMARK_PORT ?? 4102),
			survey: Number(process.env.SANDBOX_SURVEY_PORT ?? 4103),
		},
	});

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

	const credentials = await createSandboxCredentials(n8n, sandbox);
	const workflows = await importWorkflowFiles(n8n, credentials);
	for (const workflow of workflows) {
		for (const node of nodesOfType(workflow, 'signingTrigger')) {
			await fetch(`${sandbox.signing.url}/_sandbox/webhook-endpoints`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					url: productionWebhookUrl(n8n, node),
					secret: SIGNING_WEBHOOK_SECRET,
				}),
			});
		}
		if (hasTrigger(workflow)) await activateWorkflow(n8n, workflow.id);
	}

	say();
	for (const line of bannerLines({
		n8nUrl: n8n.baseUrl,
		login: OWNER,
		workflows: workflows.map((workflow) => ({ name: workflow.name, active: hasTrigger(workflow) })),
		mcpPath: mcpPathOf(workflows.flatMap((workflow) => workflow.nodes)),
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
