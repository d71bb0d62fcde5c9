/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Issue 41: every operation of every action node runs once in a real n8n, on both APIs of its
 * node, with its parameters as the editor saves them (hidden ones absent, defaults left out:
 * test/harness/operationSweep.ts derives them from the node descriptions). Each operation must run
 * without n8n's `Could not get parameter` (a parameter read that its displayOptions hide) and with
 * a plausible result: on the API that has it, its output (no error); on the other, the shared
 * "available with the … API" error. One n8n, six workflows (three nodes × two APIs), each one run.
 */
import type { INodeTypeDescription, NodeParameterValueType } from 'n8n-workflow';

import { type KarakeepSpecMock, startKarakeepSpecMock } from '../harness/karakeepSpecMock';
import { type N8nInstance, packPackage, startN8n } from '../harness/n8n';
import { N8N_VERSION } from '../harness/paths';
import {
	builtDescription,
	type Operation,
	operationsOf,
	outcomesOf,
	type StepOutcome,
	type SweepStep,
	sweepWorkflow,
} from '../harness/operationSweep';
import {
	activateWorkflow,
	createCredential,
	createSandboxCredentials,
	type CredentialRef,
	E2E_SANDBOX_OPTIONS,
	importWorkflow,
	listExecutions,
	waitUntil,
	SIGNING_WEBHOOK_SECRET,
} from '../harness/provision';
import { DOCUMENSO_SEED, FORMBRICKS_SEED, type Sandbox, SEED, startSandbox } from '../sandbox';

jest.setTimeout(900_000);

type Values = Record<string, NodeParameterValueType>;
type Api = 'documented' | 'platform';

const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });
const op = (resource: string, operation: string): Operation => ({ resource, operation });
const named = (operation: Operation, suffix = '') => `${operation.resource} → ${operation.operation}${suffix}`;

/** The IDs of each API's seed that operations are pointed at. */
interface Seed {
	signingTemplate: string | number;
	survey: string;
	response: string;
	unfinishedResponse: string;
	contact: string;
	bookmark: string;
	letter: string;
	list: string;
}

const SEEDS: Record<Api, Seed> = {
	documented: {
		signingTemplate: SEED.residencyTemplateId,
		survey: SEED.residencySurveyId,
		response: SEED.adaResponseId,
		unfinishedResponse: SEED.unfinishedResponseId,
		contact: 'contact-none',
		bookmark: SEED.adaPortfolioBookmarkId,
		letter: SEED.scannedLetterBookmarkId,
		list: SEED.readingListId,
	},
	platform: {
		signingTemplate: DOCUMENSO_SEED.residencyTemplateId,
		survey: FORMBRICKS_SEED.surveys.residency,
		response: FORMBRICKS_SEED.responses.ada,
		unfinishedResponse: FORMBRICKS_SEED.responses.unfinished,
		contact: FORMBRICKS_SEED.contacts.rosalind,
		// The Karakeep-shaped mock answers any ID from Karakeep's own schemas.
		bookmark: 'sweepbookmark0000000000001',
		letter: 'sweepbookmark0000000000002',
		list: 'sweeplist00000000000000001',
	},
};

// ---- Signing ----

const SIGNERS = JSON.stringify([
	{ name: 'Sweep Signer', email: 'sweep.signer@example.org', role: 'SIGNER' },
	{ name: 'Sweep Director', email: 'sweep.director@example.org', role: 'APPROVER' },
]);

function signingSteps(seed: Seed): SweepStep[] {
	const template = byId(seed.signingTemplate);
	const document = '={{ $json.documentId ?? $json.id }}';
	const common: Values = {
		templateId: template,
		title: 'Sweep',
		recipientsInput: 'json',
		recipientsJson: SIGNERS,
		uploadRecipientsInput: 'json',
		uploadRecipientsJson: SIGNERS,
		name: 'Sweep',
		email: 'sweep.added@example.org',
		label: 'Sweep',
		url: 'https://example.org/sweep.pdf',
		version: 'original',
	};
	let setups = 0;
	const setup = (operation: Operation, values: Values = {}): SweepStep => ({
		name: `setup ${++setups}: ${named(operation)}`,
		operation,
		values: { ...common, ...values },
	});
	const draft = () => setup(op('document', 'generateFromTemplate'), { distribute: false });
	const sent = () => [draft(), setup(op('document', 'send'), { documentId: document })];
	const withField = () => [
		draft(),
		setup(op('field', 'add'), {
			documentId: document,
			recipient: 'sweep.signer@example.org',
			type: 'TEXT',
			placement: 'position',
			page: 1,
			x: 10,
			y: 10,
			width: 20,
			height: 5,
		}),
	];
	const plan: Record<string, { after?: () => SweepStep[]; values?: Values; variants?: Record<string, Values> }> = {
		'attachment:add': { after: () => [draft()], values: { documentId: document } },
		'attachment:getMany': { after: () => [draft()], values: { documentId: document } },
		'attachment:remove': {
			after: () => [draft(), setup(op('attachment', 'add'), { documentId: document })],
			values: { attachmentId: '={{ $json.id }}' },
		},
		'document:cancel': { after: sent, values: { documentId: document } },
		'document:createFromFile': {
			values: {
				distribute: false,
				uploadFields: {
					field: [{ recipient: '1', type: 'SIGNATURE', placement: 'position', page: 1, x: 10, y: 70, width: 30, height: 8 }],
				},
			},
		},
		'document:delete': { after: () => [draft()], values: { documentId: document } },
		'document:download': { after: () => [draft()], values: { documentId: document } },
		'document:duplicate': { after: () => [draft()], values: { documentId: document } },
		'document:generateFromTemplate': { values: { distribute: false } },
		'document:get': { after: () => [draft()], values: { documentId: document } },
		'document:getAuditLog': { after: () => [draft()], values: { documentId: document } },
		'document:resend': { after: sent, values: { documentId: document } },
		'document:send': { after: () => [draft()], values: { documentId: document } },
		'document:update': { after: () => [draft()], values: { documentId: document } },
		'field:add': {
			after: () => [draft()],
			values: { documentId: document, recipient: 'sweep.signer@example.org', type: 'TEXT' },
			variants: {
				' (at a position)': { placement: 'position', page: 1, x: 10, y: 10, width: 20, height: 5 },
				// The seed's PDF has no placeholder: Documenso's refusal is the plausible answer.
				' (at a text)': { placement: 'text', placeholder: '[[sweep]]' },
			},
		},
		'field:get': { after: withField, values: { fieldId: '={{ $json.id }}' } },
		'field:remove': { after: withField, values: { fieldId: '={{ $json.id }}' } },
		'field:update': { after: withField, values: { fieldId: '={{ $json.id }}' } },
		'folder:delete': { after: () => [setup(op('folder', 'create'))], values: { folderId: '={{ $json.id }}' } },
		'folder:update': { after: () => [setup(op('folder', 'create'))], values: { folderId: '={{ $json.id }}' } },
		'recipient:add': { after: () => [draft()], values: { documentId: document } },
		'recipient:get': { after: () => [draft()], values: { recipientId: '={{ $json.recipients[0].recipientId }}' } },
		'recipient:rejectOnBehalf': {
			after: sent,
			values: { documentId: document, recipientId: '={{ $json.recipients[0].recipientId }}', rejectionReason: 'Sweep' },
		},
		'file:getMany': { after: () => [draft()], values: { documentId: document } },
		'file:remove': {
			after: () => [draft(), setup(op('file', 'getMany'), { documentId: document })],
			values: { documentId: '={{ $json.documentId }}', fileId: '={{ $json.fileId }}' },
		},
		'file:update': {
			after: () => [draft(), setup(op('file', 'getMany'), { documentId: document })],
			values: { documentId: '={{ $json.documentId }}', fileId: '={{ $json.fileId }}', fileUpdateFields: { title: 'Sweep file' } },
		},
		'recipient:remove': { after: () => [draft()], values: { recipientId: '={{ $json.recipients[0].recipientId }}' } },
		'recipient:update': { after: () => [draft()], values: { recipientId: '={{ $json.recipients[0].recipientId }}' } },
		'template:createFromFile': {
			values: {
				uploadFields: {
					field: [{ recipient: '1', type: 'SIGNATURE', placement: 'position', page: 1, x: 10, y: 70, width: 30, height: 8 }],
				},
			},
		},
		'template:delete': { after: () => [setup(op('template', 'duplicate'))], values: { templateId: '={{ $json.id }}' } },
		'template:update': { after: () => [setup(op('template', 'duplicate'))], values: { templateId: '={{ $json.id }}' } },
	};
	return stepsFrom(signing.description, plan, common);
}

// ---- Survey ----

function surveySteps(seed: Seed): SweepStep[] {
	const common: Values = {
		surveyId: byId(seed.survey),
		responseId: seed.response,
		contactId: seed.contact,
		email: 'sweep.contact@example.org',
		key: 'sweep_key',
		count: 2,
		name: 'Sweep survey',
		questions: { question: [{ type: 'openText', headline: 'What brings you here?' }] },
	};
	// Node names are unique in a workflow: each setup is numbered.
	let setups = 0;
	const made = (): SweepStep[] => [{ name: `setup ${++setups}: survey → create`, operation: op('survey', 'create'), values: common }];
	// A survey of its own for what changes a survey's status or the survey itself, not the seed's (on
	// the documented API, where Create is not available, the seed's: the operation stops before any request).
	const onMade = { after: made, values: { surveyId: byId(`={{ $json.surveyId ?? $json.id ?? "${seed.survey}" }}`) } };
	const plan: Record<string, { after?: () => SweepStep[]; values?: Values }> = {
		'survey:archive': onMade,
		'survey:complete': onMade,
		'survey:delete': onMade,
		'survey:duplicate': onMade,
		'survey:pause': onMade,
		'survey:publish': onMade,
		'survey:restore': {
			after: () => [...made(), { name: `setup ${++setups}: survey → archive`, operation: op('survey', 'archive'), values: onMade.values }],
			values: onMade.values,
		},
		'survey:update': { after: made, values: { ...onMade.values, updateFields: { name: 'Sweep survey, renamed' } } },
		'contact:createMany': { values: { email: 'sweep.many@example.org' } },
		'contact:delete': {
			after: () => [{ name: 'setup: contact → create', operation: op('contact', 'create'), values: { ...common, email: 'sweep.deleted@example.org' } }],
			// Where Create is not available (the documented API), a contact of the seed.
			values: { contactId: `={{ $json.id ?? $json.contactId ?? "${seed.contact}" }}` },
		},
		'response:delete': {
			after: () => [{ name: 'setup: response → create', operation: op('response', 'create'), values: common }],
			values: { responseId: `={{ $json.id ?? $json.responseId ?? "${seed.unfinishedResponse}" }}` },
		},
		'response:update': { values: { responseId: seed.unfinishedResponse } },
	};
	return stepsFrom(survey.description, plan, common);
}

// ---- Bookmarks ----

function bookmarkSteps(seed: Seed): SweepStep[] {
	const common: Values = {
		recordId: byId(seed.bookmark),
		listId: byId(seed.list),
		url: 'https://example.org/sweep',
		tags: 'sweep',
		query: 'Ada',
		name: 'sweep',
		text: 'Sweep',
		startOffset: 0,
		endOffset: 5,
		assetId: 'sweepasset000000000000001',
		highlightId: 'sweephighlight00000000001',
		tagId: byId('sweeptag00000000000000001'),
	};
	// Node names are unique in a workflow: each setup is numbered.
	let setups = 0;
	const backupMade = (): SweepStep => ({ name: `setup ${++setups}: backup → create`, operation: op('backup', 'create'), values: common });
	const feedMade = (): SweepStep => ({
		name: `setup ${++setups}: feed → create`,
		operation: op('feed', 'create'),
		values: { ...common, url: 'https://example.org/sweep.rss' },
	});
	// On the documented API, where Create is not available, an ID all the same: the operation stops before any request.
	const madeId = (fallback: string) => `={{ $json.id ?? "${fallback}" }}`;
	const plan: Record<string, { after?: () => SweepStep[]; values?: Values }> = {
		'bookmark:delete': {
			after: () => [{ name: 'setup: bookmark → create', operation: op('bookmark', 'create'), values: { ...common, url: 'https://example.org/sweep-deleted' } }],
			values: { recordId: byId('={{ $json.id }}') },
		},
		'list:delete': {
			after: () => [{ name: 'setup: list → create', operation: op('list', 'create'), values: { ...common, name: 'sweep deleted' } }],
			values: { listId: byId('={{ $json.id }}') },
		},
		'bookmark:getContent': { values: { recordId: byId(seed.letter) } },
		'backup:delete': { after: () => [backupMade()], values: { backupId: madeId('sweepbackup00000000000001') } },
		'backup:download': { after: () => [backupMade()], values: { backupId: madeId('sweepbackup00000000000001') } },
		'feed:delete': { after: () => [feedMade()], values: { feedId: madeId('sweepfeed0000000000000001') } },
		'feed:fetchNow': { after: () => [feedMade()], values: { feedId: madeId('sweepfeed0000000000000001') } },
		'feed:update': { after: () => [feedMade()], values: { feedId: madeId('sweepfeed0000000000000001'), name: 'sweep renamed' } },
	};
	return stepsFrom(bookmarks.description, plan, common);
}

/** One step per operation (or per variant), behind its setup, with the common values and its own. */
function stepsFrom(
	description: INodeTypeDescription,
	plan: Record<string, { after?: () => SweepStep[]; values?: Values; variants?: Record<string, Values> }>,
	common: Values,
): SweepStep[] {
	return operationsOf(description).flatMap((operation) => {
		const entry = plan[`${operation.resource}:${operation.operation}`] ?? {};
		const variants = entry.variants ?? { '': {} };
		return Object.entries(variants).map(([suffix, variant]) => {
			const values = { ...common, ...entry.values, ...variant };
			return { name: named(operation, suffix), operation, values, after: entry.after?.() };
		});
	});
}

const signing = { type: 'signing', description: builtDescription('Signing/Signing.node.js', 'Signing') };
const survey = { type: 'survey', description: builtDescription('Survey/Survey.node.js', 'Survey') };
const bookmarks = { type: 'bookmarks', description: builtDescription('Bookmarks/Bookmarks.node.js', 'Bookmarks') };

/** An operation's outcome as the test reports it, e.g. `document → send: ok` or its first error. */
const summary = (outcome: StepOutcome) =>
	`${outcome.name}: ${!outcome.ran ? 'did not run' : outcome.errors.length ? outcome.errors[0] : `ok (${outcome.items} item(s))`}`;

const UNAVAILABLE = /available with the .* API/;

describe(`every operation of every node in a real n8n ${N8N_VERSION}, with its parameters as the editor saves them`, () => {
	let n8n: N8nInstance;
	let documented: Sandbox;
	let platforms: Sandbox;
	let karakeep: KarakeepSpecMock;
	const outcomes: Record<string, Record<Api, StepOutcome[]>> = {};

	beforeAll(async () => {
		[documented, platforms, karakeep] = await Promise.all([
			startSandbox(E2E_SANDBOX_OPTIONS),
			startSandbox({ ...E2E_SANDBOX_OPTIONS, signing: 'documenso', survey: 'formbricks' }),
			startKarakeepSpecMock({ lastPages: true }),
		]);
		// Single-use links, as a Formbricks user switches them on for the survey.
		await fetch(`${platforms.survey.url}/_sandbox/surveys/${FORMBRICKS_SEED.surveys.residency}`, {
			method: 'PATCH',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ singleUse: { enabled: true } }),
		});
		n8n = await startN8n({ packageTarball: await packPackage(), env: { N8N_LOG_LEVEL: process.env.SWEEP_LOG_LEVEL ?? 'info' } });
		const documentedCredentials = await createSandboxCredentials(n8n, documented);
		const platformCredentials = await createSandboxCredentials(n8n, platforms);
		platformCredentials.signingApi = await createCredential(n8n, 'Documenso (sandbox)', 'signingApi', {
			api: 'documenso',
			baseUrl: platforms.signing.url,
			apiToken: platforms.signing.apiKey,
			webhookSecret: SIGNING_WEBHOOK_SECRET,
		});
		platformCredentials.bookmarkApi = await createCredential(n8n, 'Karakeep (spec mock)', 'bookmarkApi', {
			api: 'karakeep',
			baseUrl: karakeep.url,
			apiKey: 'sweep-karakeep-key',
		});
		const runs: Array<{ node: string; api: Api; credential: Record<string, CredentialRef>; description: INodeTypeDescription; type: string; steps: SweepStep[] }> = [];
		for (const api of ['documented', 'platform'] as const) {
			const credentials = api === 'documented' ? documentedCredentials : platformCredentials;
			const seed = SEEDS[api];
			runs.push(
				{ node: 'Signing', api, credential: { signingApi: credentials.signingApi }, ...signing, steps: signingSteps(seed) },
				{ node: 'Survey', api, credential: { surveyApi: credentials.surveyApi }, ...survey, steps: surveySteps(seed) },
				{ node: 'Bookmarks', api, credential: { bookmarkApi: credentials.bookmarkApi }, ...bookmarks, steps: bookmarkSteps(seed) },
			);
		}
		// SWEEP_ONLY=Signing:documented (node:api, comma-separated) while developing.
		const only = process.env.SWEEP_ONLY?.split(',').filter(Boolean);
		for (const run of runs.filter((candidate) => !only || only.includes(`${candidate.node}:${candidate.api}`))) {
			const path = `sweep-${run.node.toLowerCase()}-${run.api}`;
			const workflow = sweepWorkflow({
				name: `Every operation: ${run.node} (${run.api})`,
				webhookPath: path,
				type: run.type,
				typeVersion: 2,
				description: run.description,
				credentials: run.credential,
				steps: run.steps,
			});
			const imported = await importWorkflow(n8n, workflow, {});
			await activateWorkflow(n8n, imported.id);
			const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, { method: 'POST' });
			expect(response.status).toBe(200);
			// Long: a hundred nodes on a machine others share; a node that hangs is named by the log.
			const execution = await waitUntil(
				`the sweep of ${run.node} (${run.api})`,
				async () => (await listExecutions(n8n, imported.id, true))[0],
				600_000,
			);
			const runData = (execution.data?.resultData.runData ?? {}) as Parameters<typeof outcomesOf>[0];
			const names = workflow.nodes.map((node) => node.name).filter((name) => name !== 'Start' && name !== 'Read PDF');
			const list = outcomesOf(runData, names);
			(outcomes[run.node] ??= {} as Record<Api, StepOutcome[]>)[run.api] = list;
			// eslint-disable-next-line no-console
			console.log(list.map((outcome) => `${run.node} (${run.api}) ${summary(outcome)}`).join('\n'));
		}
	});
	afterAll(async () => {
		await n8n?.stop();
		await Promise.all([documented?.stop(), platforms?.stop(), karakeep?.stop()]);
	});

	it.each(['Signing', 'Survey', 'Bookmarks'])('%s: no operation reads a parameter the editor left out', (node) => {
		const failed = (['documented', 'platform'] as const).flatMap((api) =>
			(outcomes[node]?.[api] ?? []).filter((outcome) => outcome.errors.some((error) => /Could not get parameter/.test(error))).map((outcome) => `${api}: ${summary(outcome)}`),
		);
		expect(failed).toEqual([]);
	});

	it.each(['Signing', 'Survey', 'Bookmarks'])('%s: every operation ran, and succeeded on the API that has it', (node) => {
		const byName = (api: Api) => new Map((outcomes[node]?.[api] ?? []).map((outcome) => [outcome.name, outcome]));
		const [onDocumented, onPlatform] = [byName('documented'), byName('platform')];
		const problems: string[] = [];
		for (const [name, first] of onDocumented) {
			if (name.startsWith('setup')) continue;
			const second = onPlatform.get(name);
			if (!second) continue;
			if (!first.ran || !second.ran) problems.push(`${name}: did not run on ${first.ran ? 'the platform' : 'the documented API'}`);
			const unavailable = [first, second].filter((outcome) => outcome.errors.some((error) => UNAVAILABLE.test(error)));
			if (unavailable.length === 2) problems.push(`${name}: available on neither API`);
			for (const outcome of [first, second]) {
				if (unavailable.includes(outcome)) continue;
				if (outcome.errors.length > 0 && !expectedRefusal(name, outcome === first ? 'documented' : 'platform')) problems.push(`${outcome === first ? 'documented' : 'platform'} ${summary(outcome)}`);
				if (outcome.errors.length === 0 && outcome.items === 0 && !NO_OUTPUT.test(name)) problems.push(`${name}: no output`);
			}
		}
		expect(problems).toEqual([]);
	});
});

/**
 * Operations whose refusal is the plausible answer here: a draft made from the seed's template has
 * no `[[sweep]]` text (the sandbox's Documenso answers its empty PDF with 500; the documented API
 * has no Field → Add); a draft made from a template has one file, and File → Remove refuses to
 * remove a document's last file; a backup Karakeep's worker has not made yet (the spec mock's is
 * pending) has no archive to download (test/e2e/bookmarksBackupsAndFeeds.test.ts downloads a finished one).
 */
const expectedRefusal = (name: string, api: Api) =>
	api === 'platform' && ['field → add (at a text)', 'file → remove', 'backup → download'].includes(name);
/** Operations that may output nothing: a draft just made has no attachments. */
const NO_OUTPUT = /^attachment → getMany$/;
