/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The queue-mode samples (workflows/queue/) share one claim: the same table, the same claim and
 * completion statements, and a lease longer than the workflows' timeout, so that a live
 * execution is never overtaken. Their behaviour is tested in queue mode (test/e2e-queue/).
 */
import * as path from 'node:path';

import { queryOf, queueWorkflowFiles, readWorkflow, SHIPPED_LEASE } from '../harness/claims';
import { listWorkflowFiles } from '../harness/n8n';

const variants = queueWorkflowFiles().map((file) => ({ file: path.basename(file), workflow: readWorkflow(file) }));

describe('the queue-mode sample workflows', () => {
	it('each replaces a single-process sample of the same file name', () => {
		const samples = listWorkflowFiles().map((file) => path.basename(file));
		expect(variants.map(({ file }) => file).sort()).toEqual(['application-approved-to-signing.json', 'signed-to-archived.json']);
		for (const { file } of variants) expect(samples).toContain(file);
	});

	it.each(['Create Claims Table', 'Claim Event', 'Mark Done'])('share one "%s" statement', (nodeName) => {
		const queries = new Set(variants.map(({ workflow }) => queryOf(workflow, nodeName)));
		expect(queries.size).toBe(1);
	});

	it('take a claim over only after a lease longer than the workflow may run', () => {
		const lease = /interval '(\d+) minutes'/.exec(SHIPPED_LEASE);
		for (const { workflow } of variants) {
			expect(queryOf(workflow, 'Claim Event')).toContain(SHIPPED_LEASE);
			const timeoutSeconds = Number(workflow.settings?.executionTimeout);
			expect(timeoutSeconds).toBeGreaterThan(0);
			expect(timeoutSeconds).toBeLessThan(Number(lease?.[1]) * 60);
		}
	});

	it('claim and complete one event per item, on the claims credential, retrying through a short database outage', () => {
		for (const { workflow } of variants) {
			const postgres = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.postgres');
			for (const node of postgres) {
				expect({ node: node.name, batching: (node.parameters as { options: { queryBatching?: string } }).options.queryBatching }).toEqual({
					node: node.name,
					batching: 'independently',
				});
				expect(node.credentials).toEqual({ postgres: { id: 'event-claims', name: 'Event claims (Postgres)' } });
				if (node.name !== 'Create Claims Table') expect(node).toMatchObject({ retryOnFail: true });
			}
		}
	});
});
