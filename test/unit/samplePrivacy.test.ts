/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/*
 * Issue 23 §1: the sample workflows as shipped. The erasure sample keeps no execution (each run
 * reads every applicant's answers); the MCP samples hand agents no personal data and no tool
 * that deletes, cancels or e-mails people without its consent switch on.
 */

interface SampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}
interface Sample {
	nodes: SampleNode[];
	settings?: Record<string, unknown>;
}

const WORKFLOWS = path.resolve(__dirname, '..', '..', 'workflows');
const sample = (file: string) => JSON.parse(readFileSync(path.join(WORKFLOWS, file), 'utf8')) as Sample;
const note = (workflow: Sample) =>
	String(workflow.nodes.find((node) => node.name === 'About This Workflow')?.parameters.content ?? '');

/** The operations that need "Allow as AI Agent Tool" to act for an agent, by node. */
const NEEDS_CONSENT: Record<string, (parameters: Record<string, unknown>) => boolean> = {
	signingTool: (p) =>
		p.resource === 'document' &&
		(['cancel', 'send', 'resend'].includes(String(p.operation)) ||
			(p.operation === 'generateFromTemplate' && p.distribute !== false)),
	bookmarksTool: (p) => p.operation === 'delete',
	surveyTool: (p) =>
		(p.resource === 'response' && ['create', 'delete', 'update'].includes(String(p.operation))) ||
		(p.resource === 'survey' && ['archive', 'complete', 'delete', 'pause', 'publish'].includes(String(p.operation))),
};

describe('the sample workflows keep personal data where it belongs', () => {
	it('the erasure sample saves no execution, successful, failed or manual, and says so', () => {
		const erasure = sample('erasure-request.json');
		expect(erasure.settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'none',
			saveManualExecutions: false,
			saveExecutionProgress: false,
		});
		expect(note(erasure)).toMatch(/no personal data in its executions/i);
		expect(note(erasure)).toMatch(/Error Workflow/);
	});

	// Every sample a user can import, the queue-mode variants in workflows/queue/ too.
	const toolSamples = readdirSync(WORKFLOWS, { recursive: true })
		.map(String)
		.filter((file) => file.endsWith('.json'))
		.filter((file) => sample(file).nodes.some((node) => node.type.endsWith('Tool')));

	it('has tool samples to check', () => {
		expect(toolSamples).toEqual(
			expect.arrayContaining(['bookmark-curator-tools.json', 'mcp-agent-tools.json', 'survey-programme-tools.json']),
		);
	});

	it.each(toolSamples)('%s: no tool keeps personal data, and no tool acts without consent', (file) => {
		const workflow = sample(file);
		for (const node of workflow.nodes.filter((entry) => entry.type.endsWith('Tool'))) {
			const options = (node.parameters.options ?? {}) as Record<string, unknown>;
			const personalData = node.parameters.personalData ?? options.personalData;
			expect({ node: node.name, personalData }).not.toEqual({ node: node.name, personalData: 'keep' });
			const kind = node.type.split('.').pop()!;
			if (NEEDS_CONSENT[kind]?.(node.parameters)) {
				// A tool that needs the switch has it on on purpose, and its sample's note says so.
				const consent = node.parameters.allowAsTool ?? node.parameters.allowDeleteAsTool ?? node.parameters.allowWriteAsTool;
				expect({ node: node.name, consent }).toEqual({ node: node.name, consent: true });
				expect(note(workflow)).toContain('Allow as AI Agent Tool');
			}
		}
	});
});
