/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// The SDK publishes these paths through package "exports", which the lint resolver does not read.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as path from 'node:path';

import { readWorkflow } from '../harness/claims';
import { callMcpTool } from '../harness/mcp';
import { N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { n8nAtLeast } from '../harness/paths';
import { activateWorkflow, createSandboxCredentials, E2E_SANDBOX_OPTIONS, importWorkflow, MCP_TOKEN } from '../harness/provision';
import { Sandbox, startSandbox } from '../sandbox';

jest.setTimeout(300_000);

/*
 * Issue 42, Privacy: what a node throws as an agent's tool reaches the agent (n8n wraps it and adds
 * its description to the message): in a real n8n, over MCP, the tool's error follows Personal Data.
 * The MCP Server Trigger's version 2 (Streamable HTTP) is in n8n from 1.99.0.
 */
(n8nAtLeast('1.99.0') ? describe : describe.skip)('a tool’s error, as an MCP client gets it', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let client: Client;

	beforeAll(async () => {
		sandbox = await startSandbox(E2E_SANDBOX_OPTIONS);
		n8n = await startN8n({ packageTarball: await packPackage() });
		const credentials = await createSandboxCredentials(n8n, sandbox);
		const file = path.resolve(__dirname, '..', '..', 'workflows', 'mcp-agent-tools.json');
		const workflow = await importWorkflow(n8n, readWorkflow(file), credentials, file);
		await activateWorkflow(n8n, workflow.id);
		client = new Client({ name: 'e2e-tool-errors', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/attunement-tools`), {
				requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
			}),
		);
	});
	afterAll(async () => {
		await client?.close();
		await n8n?.stop();
		await sandbox?.stop();
	});

	it('get_record_details of an e-mail address: the error names the record as EMAIL_1, not the address', async () => {
		const { text, isError } = await callMcpTool(client, 'get_record_details', { recordId: 'ada.lovelace@example.org' });
		expect(isError).toBe(true);
		expect(text).not.toMatch(/ada|lovelace|example\.org/i);
		expect(text).toMatch(/EMAIL_1/);
	});
});
