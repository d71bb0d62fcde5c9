/**
 * Issue 42, Privacy: the privacy corpus' thrown errors. Every operation of the three nodes runs as an
 * agent's tool with personal values in every parameter it may echo (IDs, names, e-mail addresses,
 * free text): against the documented APIs and against Documenso and Formbricks. Whatever each throws
 * (its message, description, the service's own text and the error's fields, as n8n hands them on)
 * holds none of them; the same runs as an ordinary node keep the values in their errors.
 */
import type { IDataObject, INodeProperties, INodeType, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { type Sandbox, startSandbox } from '../sandbox';
import { executeContext } from './helpers/context';
import { startDocumensoHarness, type DocumensoHarness } from './helpers/documenso';
import { startFormbricksHarness, type FormbricksHarness } from './helpers/formbricks';

jest.setTimeout(180_000);

const EMAIL = 'ada.lovelace@example.org';
const NAMED = `Ada Lovelace <${EMAIL}>`;
/** A labelled note, as free text carries personal data. */
const NOTE = `Applicant: Ada Lovelace, phone +44 20 7946 0958, ${EMAIL}`;
const PERSONAL = [/ada/i, /lovelace/i, /7946/];

/** The operations of a node, by resource, as its description lists them. */
function operationsOf(node: INodeType): Array<[string, string]> {
	const found: Array<[string, string]> = [];
	for (const property of node.description.properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		for (const resource of (property.displayOptions?.show?.resource as string[] | undefined) ?? []) {
			for (const option of property.options ?? []) found.push([resource, String((option as { value: unknown }).value)]);
		}
	}
	return found;
}

/** Every parameter of the node, filled with personal values where it takes text or an ID. */
function personalParameters(node: INodeType): IDataObject {
	const parameters: IDataObject = {};
	const fill = (property: INodeProperties) => {
		if (property.type === 'resourceLocator') parameters[property.name] = { __rl: true, mode: 'id', value: EMAIL };
		else if (property.type === 'string' && !(property.name in parameters)) {
			parameters[property.name] = /id$/i.test(property.name) ? EMAIL : /note|text|description|message|reason|title|name/i.test(property.name) ? NOTE : NAMED;
		}
	};
	node.description.properties.forEach(fill);
	return {
		...parameters,
		allowAsTool: true,
		allowDeleteAsTool: true,
		allowWriteAsTool: true,
		email: NAMED,
		recipientsInput: 'json',
		recipientsJson: JSON.stringify([{ name: 'Ada Lovelace', email: EMAIL, role: 'SIGNER' }]),
		recipient: EMAIL,
	};
}

/** What n8n hands an agent of a thrown error, and the fields it keeps of it. */
function agentView(error: unknown): string {
	const node = { name: 'Tool', type: 'tool', typeVersion: 1, position: [0, 0] as [number, number], parameters: {}, id: 'x' };
	const wrapped = new NodeOperationError(node, error as Error);
	const fields = error as NodeError & { errorResponse?: unknown };
	return [
		wrapped.message,
		wrapped.description,
		fields.stack,
		JSON.stringify({ messages: fields.messages, context: fields.context, errorResponse: fields.errorResponse }),
		fields.cause instanceof Error ? fields.cause.message : JSON.stringify(fields.cause ?? null),
	].join('\n');
}

const leaks = (text: string) => PERSONAL.filter((pattern) => pattern.test(text.replace(/\/work\/\S+/g, ''))).map(String);

interface Target {
	name: string;
	node: INodeType;
	kind: string;
	credentials: () => Record<string, IDataObject>;
}

describe('every operation’s errors as a tool hold none of the corpus’ personal values', () => {
	let sandbox: Sandbox;
	let documenso: DocumensoHarness;
	let formbricks: FormbricksHarness;
	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		documenso = await startDocumensoHarness();
		formbricks = await startFormbricksHarness();
	});
	afterAll(async () => {
		await sandbox?.stop();
		await documenso?.stop();
		await formbricks?.stop();
	});

	const targets: Target[] = [
		{ name: 'Signing, documented API', node: new Signing(), kind: 'signing', credentials: () => ({ signingApi: { baseUrl: sandbox.signing.url, apiToken: sandbox.signing.apiKey } }) },
		{ name: 'Signing, Documenso', node: new Signing(), kind: 'signing', credentials: () => documenso.credentials() },
		{ name: 'Bookmarks, documented API', node: new Bookmarks(), kind: 'bookmarks', credentials: () => ({ bookmarkApi: { baseUrl: sandbox.bookmark.url, apiKey: sandbox.bookmark.apiKey } }) },
		{ name: 'Survey, documented API', node: new Survey(), kind: 'survey', credentials: () => ({ surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } }) },
		{ name: 'Survey, Formbricks', node: new Survey(), kind: 'survey', credentials: () => formbricks.credentials() },
	];

	it.each(targets.map((target) => [target.name, target] as const))('%s', async (_name, target) => {
		const base = personalParameters(target.node);
		const outcomes: Array<{ operation: string; leaked: string[] }> = [];
		let echoed = 0;
		let failed = 0;
		let kept = 0;
		for (const [resource, operation] of operationsOf(target.node)) {
			const run = async (tool: boolean) => {
				const { context } = executeContext({
					parameters: { ...base, resource, operation },
					credentials: target.credentials(),
					node: tool ? { type: `n8n-nodes-sign-survey-bookmark.${target.kind}Tool` } : {},
				});
				try {
					await target.node.execute!.call(context);
					return undefined;
				} catch (error) {
					return agentView(error);
				}
			};
			const asTool = await run(true);
			if (asTool === undefined) continue;
			failed++;
			if (/EMAIL_\d|NAME_\d|PHONE_\d/.test(asTool)) echoed++;
			outcomes.push({ operation: `${resource} → ${operation}`, leaked: leaks(asTool) });
			// An ordinary node's error says what it was given, as before.
			const ordinary = await run(false);
			if (ordinary !== undefined && leaks(ordinary).length > 0) kept++;
		}
		expect(outcomes.filter((outcome) => outcome.leaked.length > 0)).toEqual([]);
		// The corpus reaches the errors: many operations echo what they were given, redacted.
		expect(failed).toBeGreaterThan(5);
		expect(echoed).toBeGreaterThan(2);
		expect(kept).toBeGreaterThanOrEqual(echoed);
	});
});
