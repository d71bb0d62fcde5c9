import type {
	IExecuteFunctions,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { personalDataMode, runsAsTool } from '../../nodes/shared/privacy';

const NODES: INodeType[] = [
	new Bookmarks(),
	new BookmarksTrigger(),
	new Signing(),
	new SigningTrigger(),
	new Survey(),
	new SurveyTrigger(),
];

/**
 * Every displayOptions condition that n8n 1.x can never satisfy. n8n 1.x resolves the
 * parameters of each level (the node, then each collection / fixedCollection option) in
 * dependency order and only knows the names on that level: a condition on any other name
 * (say a collection option shown only for some `operation`) loops until "Could not resolve
 * parameter dependencies. Max iterations reached!", and the workflow does not activate.
 * n8n 2.x skips such names, so only 1.x shows the failure.
 */
function unresolvableIn1x(properties: INodeProperties[], where: string): string[] {
	const siblings = new Set(properties.map((property) => property.name));
	const found: string[] = [];
	for (const property of properties) {
		for (const rule of Object.values(property.displayOptions ?? {})) {
			if (typeof rule !== 'object' || rule === null) continue;
			for (const name of Object.keys(rule)) {
				if (!name.startsWith('@') && !siblings.has(name)) {
					found.push(`${where} › ${property.name} depends on "${name}"`);
				}
			}
		}
		if (property.type === 'collection') {
			found.push(...unresolvableIn1x((property.options ?? []) as INodeProperties[], `${where} › ${property.name}`));
		}
		if (property.type === 'fixedCollection') {
			for (const option of (property.options ?? []) as Array<{ name: string; values?: INodeProperties[] }>) {
				found.push(...unresolvableIn1x(option.values ?? [], `${where} › ${property.name}.${option.name}`));
			}
		}
	}
	return found;
}

describe('node descriptions that n8n 1.x and 2.x both resolve', () => {
	it.each(NODES.map((node) => [node.description.name, node.description] as const))(
		'%s: no displayOptions on a parameter outside its own level',
		(_name, description: INodeTypeDescription) => {
			expect(unresolvableIn1x(description.properties, description.name)).toEqual([]);
		},
	);

	describe('Bookmarks filters, one collection per operation', () => {
		const properties = new Bookmarks().description.properties;
		const resolve = (values: INodeParameters) =>
			NodeHelpers.getNodeParameters(properties, values, false, false, null, new Bookmarks().description);

		it('Get Many keeps its optional Query filter with the list and tag', () => {
			const filters = { query: 'residency', tag: 'essay', list: { __rl: true, mode: 'id', value: 'list_1' } };
			expect(resolve({ resource: 'bookmark', operation: 'getMany', filters })?.filters).toEqual(filters);
		});

		it('Search offers the list and tag, its query being the required top-level field', () => {
			const search = properties.filter(
				(property) => property.name === 'filters' && property.displayOptions?.show?.operation?.includes('search'),
			);
			expect(search).toHaveLength(1);
			expect((search[0].options as INodeProperties[]).map((option) => option.name)).toEqual(['archived', 'favourited', 'list', 'tag']);
			const resolved = resolve({ resource: 'bookmark', operation: 'search', query: 'portfolio', filters: { tag: 'essay' } });
			expect(resolved).toMatchObject({ query: 'portfolio', filters: { tag: 'essay' } });
		});
	});
});

/**
 * n8n 2.x tells a node it runs as an agent's tool (`isToolExecution`); n8n 1.x (1.123.81
 * included) has no such method and runs a node as a tool only through its generated
 * "…Tool" variant. The end-to-end MCP test exercises both for real; these pin the two shapes.
 */
describe('tool detection on the execute context of n8n 1.x and 2.x', () => {
	const context = (type: string, isToolExecution?: () => boolean) =>
		({
			getNode: () => ({ name: 'Survey', type, typeVersion: 1, position: [0, 0], parameters: {} }),
			...(isToolExecution ? { isToolExecution } : {}),
		}) as unknown as IExecuteFunctions;

	it('n8n 1.x (no isToolExecution): the Tool variant is a tool, the plain node is not', () => {
		expect(runsAsTool(context('n8n-nodes-sign-survey-bookmark.surveyTool'))).toBe(true);
		expect(personalDataMode(context('n8n-nodes-sign-survey-bookmark.surveyTool'), undefined)).toBe('redact');
		expect(runsAsTool(context('n8n-nodes-sign-survey-bookmark.survey'))).toBe(false);
		expect(personalDataMode(context('n8n-nodes-sign-survey-bookmark.survey'), undefined)).toBe('keep');
	});

	it('n8n 2.x (isToolExecution): a tool call of the plain node counts, as does the Tool variant', () => {
		expect(runsAsTool(context('n8n-nodes-sign-survey-bookmark.survey', () => true))).toBe(true);
		expect(runsAsTool(context('n8n-nodes-sign-survey-bookmark.survey', () => false))).toBe(false);
		expect(runsAsTool(context('n8n-nodes-sign-survey-bookmark.surveyTool', () => false))).toBe(true);
	});
});
