/**
 * P3: Generate From Template for `BENCH_DOCUMENTS` applicants in one execution, with the signing
 * service limited to 300 requests a minute: nothing may fail or be created twice, and the run
 * should take little longer than the limit allows.
 */
import { PACKAGE_NAME } from '../../test/harness/n8n';
import { sandboxControl } from '../../test/unit/helpers/sandbox';
import {
	type Benchmark,
	callUntilRegistered,
	deployChain,
	lastExecution,
	type Node,
	ratio,
	type Row,
	sizesFromEnv,
	takeRequests,
	webhookNode,
	withStack,
} from '../shared';

const SIGNING_LIMIT = 300;
const WINDOW_MS = 60_000;

/**
 * The shortest time the sandbox's sliding window allows for `documents` requests: the first
 * `limit` go at once, each further `limit` one window later.
 */
export const floorMs = (documents: number, limit = SIGNING_LIMIT) => (Math.ceil(documents / limit) - 1) * WINDOW_MS;

export const p3BulkSigning: Benchmark = {
	name: 'p3',
	title: 'P3 bulk signing under the rate limit',
	runByDefault: true,
	async run() {
		const { documents, reducedSize } = sizesFromEnv({ documents: ['BENCH_DOCUMENTS', 1_000] });
		return await withStack({ rateLimits: { signing: SIGNING_LIMIT } }, {}, async (stack) => {
			const signing = sandboxControl(stack.sandbox, 'signing');
			const workflow = await deployChain(stack, 'Bench P3 – bulk signing', [
				webhookNode('bench-p3'),
				{
					name: 'Split',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [200, 0],
					parameters: { fieldToSplitOut: 'body.applicants', options: {} },
				},
				{
					name: 'Generate',
					type: `${PACKAGE_NAME}.signing`,
					typeVersion: 1,
					position: [400, 0],
					onError: 'continueRegularOutput',
					parameters: {
						resource: 'document',
						operation: 'generateFromTemplate',
						templateId: 'tpl_residency_agreement',
						title: '=Residency agreement – {{ $json.name }}',
						recipientsInput: 'json',
						recipientsJson: '={{ [{ "name": $json.name, "email": $json.email, "role": "SIGNER" }] }}',
					},
					credentials: { signingApi: stack.credentials.signingApi },
				} as Node,
			]);
			const applicants = Array.from({ length: documents }, (_, n) => ({
				name: `Applicant ${n}`,
				email: `applicant${n}@example.org`,
			}));
			await signing.clearRequests();
			const { ms } = await callUntilRegistered(`${stack.n8n.baseUrl}/webhook/bench-p3`, { applicants });
			const requests = await takeRequests(signing);
			const { items } = (await lastExecution(stack.n8n, workflow.id, 'Generate')) as { items: Array<{ error?: unknown }> };
			const created = (await signing.call<{ documents: Array<{ title: string }> }>('GET', '/documents')).documents.filter(
				(document) => document.title.startsWith('Residency agreement – Applicant '),
			);
			const figures = {
				documents,
				wallMs: ms,
				floorMs: floorMs(documents),
				// Up to one window's worth the limit costs nothing: no floor to compare with.
				wallOverFloor: floorMs(documents) > 0 ? ratio(ms, floorMs(documents)) : null,
				rateLimitAnswers: requests.filter((request) => request.status === 429).length,
				failedItems: items.filter((item) => item.error !== undefined).length,
				documentsCreated: created.length,
				duplicated: created.length - new Set(created.map((document) => document.title)).size,
			};
			const label = `P3 ${documents} documents at ${SIGNING_LIMIT} requests a minute`;
			const rows: Row[] = [
				{
					benchmark: `${label}: wall time`,
					ours: `${(ms / 1000).toFixed(1)} s`,
					theirs: '',
					result: figures.wallOverFloor === null ? 'within one window' : `${figures.wallOverFloor}× the ${figures.floorMs / 1000} s floor`,
					target: '≤ 1.1×',
					met: figures.wallOverFloor === null || figures.wallOverFloor <= 1.1,
				},
				{
					benchmark: `${label}: 429s seen / failed / duplicated / created`,
					ours: `${figures.rateLimitAnswers} / ${figures.failedItems} / ${figures.duplicated} / ${figures.documentsCreated}`,
					theirs: '',
					result: '',
					target: `– / 0 / 0 / ${documents}`,
					met: figures.failedItems === 0 && figures.duplicated === 0 && figures.documentsCreated === documents,
				},
			];
			return { figures, rows, reducedSize };
		});
	},
};
