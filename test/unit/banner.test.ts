/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 18 item 8: the `npm start` banner has the demo commands and the MCP URL with its header,
 * docs/development.md shows that banner as printed, and docs/sample-workflows.md, the demo and the
 * editor (the workflows' own names) call each sample workflow the same.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { bannerLines, mcpPathsOf } from '../../scripts/banner';
import { listWorkflowFiles, OWNER } from '../harness/n8n';
import { activeAfterDeploy, ImportedWorkflow } from '../harness/provision';
import { DEFAULT_KEYS } from '../sandbox';

const ROOT = path.resolve(__dirname, '..', '..');
const development = readFileSync(path.join(ROOT, 'docs', 'development.md'), 'utf8');
const sampleWorkflows = readFileSync(path.join(ROOT, 'docs', 'sample-workflows.md'), 'utf8');
const demo = readFileSync(path.join(ROOT, 'scripts', 'demo.ts'), 'utf8');
const start = readFileSync(path.join(ROOT, 'scripts', 'start.ts'), 'utf8');

const workflows = listWorkflowFiles().map((file) => {
	const workflow = JSON.parse(readFileSync(file, 'utf8')) as ImportedWorkflow;
	return { ...workflow, file: path.basename(file) };
});

/** The banner `npm start` prints with its default ports, as docs/development.md must show it. */
const defaultBanner = () =>
	bannerLines({
		n8nUrl: 'http://127.0.0.1:5678',
		login: OWNER,
		workflows: workflows.map((workflow) => ({ name: workflow.name, active: activeAfterDeploy(workflow) })),
		mcpPath: mcpPathsOf(workflows.flatMap((workflow) => workflow.nodes)),
		mcpToken: /const MCP_TOKEN = '([^']+)'/.exec(start)?.[1] ?? 'sandbox-mcp-token',
		sandbox: {
			signing: { url: 'http://127.0.0.1:4101', apiKey: DEFAULT_KEYS.signing },
			bookmark: { url: 'http://127.0.0.1:4102', apiKey: DEFAULT_KEYS.bookmark },
			survey: { url: 'http://127.0.0.1:4103', apiKey: DEFAULT_KEYS.survey },
		},
		logFile: '.tmp/n8n-5678.log',
	}).join('\n');

describe('npm start banner', () => {
	it('has the demo commands and the MCP server with its Authorization header', () => {
		const banner = defaultBanner();
		expect(banner).toContain('npm run demo -- apply ');
		expect(banner).toContain('npm run demo -- apply rejected');
		expect(banner).toContain('npm run demo -- sign ');
		expect(banner).toMatch(/^MCP server: +http:\/\/127\.0\.0\.1:5678\/mcp\/attunement-tools$/m);
		expect(banner).toMatch(/^ {2}header: +Authorization: Bearer \S+$/m);
		for (const workflow of workflows) expect(banner).toContain(workflow.name);
	});

	it('is shown in docs/development.md exactly as printed', () => {
		const shown =
			/What `npm start` prints once everything runs[^\n]*\n\n```text\n([\s\S]*?)\n```/.exec(
				development,
			)?.[1];
		expect(shown).toBe(defaultBanner());
	});
});

describe('Sample workflows have one name each', () => {
	it('docs/sample-workflows.md documents each workflow under its own name', () => {
		for (const workflow of workflows) {
			expect(sampleWorkflows).toContain(`### ${workflow.name} (\`${workflow.file}\`)`);
		}
	});

	it('the demo names only workflows that exist, by their names', () => {
		const quoted = [...demo.matchAll(/"([^"]*→[^"]*)"/g)].map((match) => match[1]);
		expect(quoted.length).toBeGreaterThan(0);
		const names = workflows.map((workflow) => workflow.name);
		for (const name of quoted) expect(names).toContain(name);
	});
});
