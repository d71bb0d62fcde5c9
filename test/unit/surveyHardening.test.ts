/**
 * Issue 23's defects of the Survey node, each reproduced against the sandbox: marks committed
 * for nodes that did not read, dates that do not exist, zone-less times read as UTC.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Survey } from '../../nodes/Survey/Survey.node';
import { type Sandbox, SEED, SEED_COUNTS, startSandbox } from '../sandbox';
import { type ExecuteOptions, executeContext, type Parameters } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';

jest.setTimeout(60_000);

const survey = (id: string) => ({ mode: 'id', value: id });

describe('Survey node: marks of the node that read, dates as the workflow means them', () => {
	let sandbox: Sandbox;
	let control: ReturnType<typeof sandboxControl>;
	const node = new Survey();

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		control = sandboxControl(sandbox, 'survey');
	});
	afterAll(async () => await sandbox?.stop());
	beforeEach(async () => await control.reset());

	const run = async (parameters: Parameters, options: Partial<ExecuteOptions> = {}) => {
		const { context } = executeContext({
			parameters,
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			...options,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const onlyNew = (surveyId: string, options: IDataObject = {}): Parameters => ({
		resource: 'response',
		operation: 'getMany',
		surveyId: survey(surveyId),
		returnAll: true,
		options: { onlyNew: true, ...options },
	});

	describe('Only New Since Last Run: each mark moves for the node (and survey) that read', () => {
		/**
		 * One execution of a workflow with two readers on two branches: "Residency" → … → "Mark
		 * Residency Read", and "Alumni" → … (a branch that fails before its own Mark as Read).
		 */
		const execution = async (
			staticData: ExecuteOptions['staticData'],
			executionId: string,
			alumniOptions: IDataObject = {},
		) => {
			const residency = await run(onlyNew(SEED.residencySurveyId), {
				staticData,
				executionId,
				node: { name: 'Residency' },
			});
			const alumni = await run(onlyNew(SEED.alumniSurveyId, alumniOptions), {
				staticData,
				executionId,
				node: { name: 'Alumni' },
			});
			return { residency: residency.length, alumni: alumni.length };
		};
		const markAsRead = async (
			staticData: ExecuteOptions['staticData'],
			executionId: string,
			parentNodes: string[],
		) =>
			(
				await run(
					{ resource: 'response', operation: 'markAsRead' },
					{ staticData, executionId, parentNodes, node: { name: 'Mark Residency Read' } },
				)
			)[0].marksCommitted;

		it('Mark as Read commits only the marks of the readers before it (regression: every node’s)', async () => {
			const staticData: ExecuteOptions['staticData'] = {};
			expect(await execution(staticData, 'e1')).toEqual({
				residency: SEED_COUNTS.residencyResponses,
				alumni: SEED_COUNTS.alumniResponses,
			});
			expect(await markAsRead(staticData, 'e1', ['Trigger', 'Residency', 'Process'])).toBe(1);
			// The alumni branch never reached a Mark as Read: its responses come again.
			expect(await execution(staticData, 'e2')).toEqual({
				residency: 0,
				alumni: SEED_COUNTS.alumniResponses,
			});
		});

		it('Advance Mark "Right Away" commits only its own mark (regression: also other nodes’ pending ones)', async () => {
			const staticData: ExecuteOptions['staticData'] = {};
			// Residency reads (pending), then Alumni reads with Right Away; the run fails later.
			await execution(staticData, 'e1', { advanceMark: 'rightAway' });
			expect(await execution(staticData, 'e2', { advanceMark: 'rightAway' })).toEqual({
				residency: SEED_COUNTS.residencyResponses,
				alumni: 0,
			});
		});

		it('with n8n that cannot name a node’s parents, Mark as Read commits every mark of the run', async () => {
			const staticData: ExecuteOptions['staticData'] = {};
			await execution(staticData, 'e1');
			const { context } = executeContext({
				parameters: { resource: 'response', operation: 'markAsRead' },
				credentials: {},
				staticData,
				executionId: 'e1',
			});
			delete (context as Partial<typeof context>).getParentNodes;
			const [out] = (await node.execute.call(context))[0];
			expect(out.json.marksCommitted).toBe(2);
		});
	});

	describe('date filters', () => {
		const filtered = async (filters: IDataObject, timezone: string) => {
			await control.clearRequests();
			const outcome = await run(
				{
					resource: 'response',
					operation: 'getMany',
					surveyId: survey(SEED.residencySurveyId),
					returnAll: true,
					filters,
				},
				{ timezone },
			).catch((error: Error) => error);
			const [request] = await control.requests();
			return { outcome, query: request?.query };
		};

		it('refuses a date that does not exist, naming the filter, before sending (regression: 2026-02-30 became March 2)', async () => {
			for (const [filters, message] of [
				[{ createdAfter: '2026-02-30' }, 'Created After: February 30, 2026 does not exist'],
				[
					{ updatedBefore: '2025-02-29T10:00:00' },
					'Updated Before: February 29, 2025 does not exist',
				],
				[{ createdBefore: '2026-13-01' }, 'Created Before: there is no month 13'],
			] as const) {
				const { outcome, query } = await filtered(filters, 'UTC');
				expect(outcome).toBeInstanceOf(NodeOperationError);
				expect((outcome as Error).message).toBe(message);
				expect(query).toBeUndefined();
			}
			expect((await filtered({ createdAfter: '2028-02-29' }, 'UTC')).query).toMatchObject({
				startDate: '2028-02-29T00:00:00.000Z',
			});
		});

		it('reads a date or a time without a zone in the workflow’s time zone (regression: always UTC)', async () => {
			const berlin = await filtered(
				{ createdAfter: '2026-10-06', createdBefore: '2026-10-06T18:30:00' },
				'Europe/Berlin',
			);
			expect(berlin.query).toMatchObject({
				startDate: '2026-10-05T22:00:00.000Z',
				endDate: '2026-10-06T16:30:00.000Z',
			});
			const newYork = await filtered({ updatedAfter: '2026-01-15T09:00' }, 'America/New_York');
			expect(newYork.query).toMatchObject({ startDate: '2026-01-15T14:00:00.000Z' });
			// A zone given wins over the workflow's.
			const zoned = await filtered({ createdAfter: '2026-10-06T08:00:00+05:30' }, 'Europe/Berlin');
			expect(zoned.query).toMatchObject({ startDate: '2026-10-06T02:30:00.000Z' });
		});

		it('takes a JavaScript Date or a DateTime from an expression at its instant', async () => {
			const instant = Date.UTC(2026, 9, 6, 12, 0, 0);
			const dateTime = { isLuxonDateTime: true, isValid: true, toMillis: () => instant };
			for (const value of [new Date(instant), dateTime]) {
				const { query } = await filtered({ createdAfter: value }, 'Asia/Tokyo');
				expect(query).toMatchObject({ startDate: '2026-10-06T12:00:00.000Z' });
			}
		});
	});
});
