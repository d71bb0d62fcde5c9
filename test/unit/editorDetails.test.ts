/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Issue 28 item 4: what a reviewer of built-in nodes sends back. Visibility is resolved with
 * n8n-workflow's own NodeHelpers, as the editor and the backend resolve it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INode, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { PROJECT_ROOT } from '../harness/paths';

const NODES: INodeType[] = [new Signing(), new SigningTrigger(), new Bookmarks(), new BookmarksTrigger(), new Survey(), new SurveyTrigger()];

/** Every parameter of a node, collection options and fixed-collection values included. */
function allParameters(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...(property.type === 'collection' ? allParameters((property.options ?? []) as INodeProperties[]) : []),
		...(property.type === 'fixedCollection'
			? ((property.options ?? []) as Array<{ values?: INodeProperties[] }>).flatMap((option) => allParameters(option.values ?? []))
			: []),
	]);
}

/** The top-level parameters the editor shows for these values, with n8n's own display rules. */
function shown(nodeType: INodeType, typeVersion: number, values: INodeParameters): INodeProperties[] {
	const { description } = nodeType;
	const node = { typeVersion, parameters: values } as unknown as INode;
	const resolved = NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ?? {};
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(resolved, property, node, description),
	);
}

describe('pickers read like n8n’s own', () => {
	it.each(NODES.map((node) => [node.description.displayName, node]))(
		'%s: every "From List" picker says what to select, as n8n’s pickers do',
		(_, node) => {
			for (const parameter of allParameters(node.description.properties).filter((p) => p.type === 'resourceLocator')) {
				const list = parameter.modes?.find((mode) => mode.type === 'list');
				expect([parameter.name, list?.placeholder]).toEqual([parameter.name, expect.stringMatching(/^Select an? [a-z]+\.\.\.$/)]);
			}
		},
	);
});

describe('Bookmarks → Create', () => {
	const bookmarks = new Bookmarks();
	it.each([1, 2])('version %i: the URL of a Link bookmark is required, the Text of a Text one', (version) => {
		const create = { resource: 'bookmark', operation: 'create' };
		const link = shown(bookmarks, version, { ...create, type: 'link' });
		expect(link.filter((p) => p.name === 'url').map((p) => p.required)).toEqual([true]);
		expect(link.some((p) => p.name === 'text')).toBe(false);
		const text = shown(bookmarks, version, { ...create, type: 'text' });
		expect(text.filter((p) => p.name === 'text').map((p) => p.required)).toEqual([true]);
		expect(text.some((p) => p.name === 'url')).toBe(false);
	});
});

describe('Survey → Response → Get Many with Only New Since Last Run (version 2)', () => {
	const survey = new Survey();
	const getMany = { resource: 'response', operation: 'getMany' };
	const names = (values: INodeParameters) => shown(survey, 2, { ...getMany, ...values }).map((p) => p.name);
	const optionsOf = (values: INodeParameters) =>
		shown(survey, 2, { ...getMany, ...values })
			.filter((p) => p.name === 'options')
			.flatMap((p) => (p.options as INodeProperties[]).map((option) => option.name));

	it('off: Return All, Limit, the date filters and Offset apply; Advance Mark is not shown', () => {
		expect(names({ onlyNew: false })).toEqual(expect.arrayContaining(['onlyNew', 'returnAll', 'limit', 'filters']));
		expect(names({ onlyNew: false })).not.toContain('advanceMark');
		expect(optionsOf({ onlyNew: false })).toEqual(['answers', 'extraPersonalFields', 'maxConcurrency', 'offset', 'personalData']);
	});

	it('on: Advance Mark is shown; Return All, Limit, the date filters and Offset are not', () => {
		expect(names({ onlyNew: true })).toEqual(expect.arrayContaining(['onlyNew', 'advanceMark']));
		for (const hidden of ['returnAll', 'limit', 'filters']) expect(names({ onlyNew: true })).not.toContain(hidden);
		expect(optionsOf({ onlyNew: true })).toEqual(['answers', 'extraPersonalFields', 'maxConcurrency', 'personalData']);
	});

	it('version 1 keeps its layout; its Advance Mark option is offered only beside Only New', () => {
		const v1 = shown(survey, 1, { ...getMany, options: {} });
		expect(v1.map((p) => p.name)).toEqual(expect.arrayContaining(['returnAll', 'limit', 'filters', 'options']));
		const options = v1.find((p) => p.name === 'options')!.options as INodeProperties[];
		const advanceMark = options.find((option) => option.name === 'advanceMark')!;
		expect(NodeHelpers.displayParameter({ onlyNew: true }, advanceMark, { typeVersion: 1 }, survey.description)).toBe(true);
		expect(NodeHelpers.displayParameter({ onlyNew: false }, advanceMark, { typeVersion: 1 }, survey.description)).toBe(false);
		expect(NodeHelpers.displayParameter({}, advanceMark, { typeVersion: 1 }, survey.description)).toBe(false);
	});
});

// Issue 37 item 1: n8n's `dateTime` parameter is Element Plus's picker in the editor
// (ParameterInput: `el-date-picker` with value-format `YYYY-MM-DDTHH:mm:ss`), which rewrites what is
// typed: 2026-02-30 becomes 2026-03-02, a date without a time is emptied, a zone is dropped
// (test/e2e/editorInBrowser.test.ts types them in a real browser). A text field keeps them.
describe('Survey → Response → Get Many: the date filters keep what is typed', () => {
	const survey = new Survey();
	const typed = ['2026-02-30 00:00:00', '2026-11-10', '2026-11-10 00:00:00+02:00', '2026-10-06T18:30'];

	it.each([1, 2])('version %i: each filter is a text field with an example, and n8n’s parameter handling keeps the text', (version) => {
		const getMany = { resource: 'response', operation: 'getMany', onlyNew: false };
		const filters = shown(survey, version, getMany).find((p) => p.name === 'filters')!;
		const dateFilters = filters.options as INodeProperties[];
		expect(dateFilters.map((p) => [p.name, p.type, p.placeholder])).toEqual(
			['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'].map((name) => [name, 'string', expect.stringMatching(/^e\.g\. \d{4}-\d{2}-\d{2}/)]),
		);
		for (const value of typed) {
			const values = { ...getMany, filters: { createdAfter: value, updatedBefore: value } };
			const node = { typeVersion: version, parameters: values } as unknown as INode;
			const resolved = NodeHelpers.getNodeParameters(survey.description.properties, values, true, false, node, survey.description);
			expect(resolved?.filters).toEqual({ createdAfter: value, updatedBefore: value });
		}
	});
});

// Issue 37 item 5: every operation that e-mails people says so first, as Generate From Template does.
describe('Signing → Document: operations that e-mail people', () => {
	const signing = new Signing();
	it.each(['generateFromTemplate', 'send', 'resend'].flatMap((operation) => [1, 2].map((version) => [operation, version])))(
		'%s (version %i) shows a notice right below the operation that real e-mails go out',
		(operation, version) => {
			const parameters = shown(signing, version as number, { resource: 'document', operation });
			const below = parameters[parameters.findIndex((p) => p.name === 'operation') + 1];
			expect([below.type, below.displayName]).toEqual([
				'notice',
				expect.stringMatching(/^Executing this operation, also with "Execute step" in the editor, .*e-mails real /),
			]);
		},
	);
});

describe('sample workflows', () => {
	// Issue 37 item 10.
	it('docs/sample-workflows.md counts them as many as workflows/ holds', () => {
		const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen'];
		const said = /`workflows\/` holds (\w+) workflows/.exec(readFileSync(path.join(PROJECT_ROOT, 'docs', 'sample-workflows.md'), 'utf8'))?.[1];
		const files = readdirSync(path.join(PROJECT_ROOT, 'workflows')).filter((file) => file.endsWith('.json'));
		expect(said).toBe(NUMBERS[files.length]);
	});

	it('the curator sample says what n8n answers a call without the token: 403, as docs/sample-workflows.md does', () => {
		const workflow = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'workflows', 'bookmark-curator-tools.json'), 'utf8')) as {
			nodes: Array<{ type: string; parameters: { content?: string } }>;
		};
		const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').map((node) => node.parameters.content ?? '');
		const authentication = notes.join('\n').match(/A call without it[^.]*\./)?.[0];
		expect(authentication).toMatch(/403/);
		expect(authentication).not.toMatch(/401/);
		expect(readFileSync(path.join(PROJECT_ROOT, 'docs', 'sample-workflows.md'), 'utf8')).toMatch(/refused \(`403`, n8n's answer for bearer authentication\)/);
	});
});
