/**
 * A workflow's executions in queue mode, read from the main process's public API, for the
 * queue-mode end-to-end tests and the chaos runs.
 */
import type { N8nInstance } from './n8n';
import { waitUntil } from './processes';

export interface QueuedExecution {
	id: string;
	status: string;
	/** `webhook` for a delivery, `trigger` for the Schedule Trigger's reconcile. */
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

/** Every execution of a workflow, all pages. */
export async function allExecutions(main: N8nInstance, workflowId: string): Promise<QueuedExecution[]> {
	const executions: QueuedExecution[] = [];
	let cursor: string | undefined;
	do {
		const page = await main.api<{ data: QueuedExecution[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		);
		executions.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return executions;
}

export const isFinished = (execution: QueuedExecution) => !['new', 'running', 'waiting'].includes(execution.status);

/**
 * Waits until a reconcile run (the Schedule Trigger's execution) of the workflow that started
 * after `after` has finished, and returns it.
 */
export async function nextReconcile(main: N8nInstance, workflowId: string, after: Date, timeoutMs = 300_000): Promise<QueuedExecution> {
	return await waitUntil(
		`a reconcile run of workflow ${workflowId} started after ${after.toISOString()}`,
		async () =>
			(await allExecutions(main, workflowId)).find(
				(execution) =>
					execution.mode === 'trigger' &&
					isFinished(execution) &&
					execution.startedAt !== null &&
					Date.parse(execution.startedAt) > after.getTime(),
			),
		timeoutMs,
		2_000,
	);
}
