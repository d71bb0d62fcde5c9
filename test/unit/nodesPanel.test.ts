/**
 * Issue 28 item 2: n8n's nodes panel shows one entry per service (the action node with its
 * trigger's events) and gives it the trigger's description. That entry, and its page, must say
 * what the action node does, not only "Starts the workflow when…".
 */
import type { INodeType } from 'n8n-workflow';

import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { type EditorNodeType, n8nPanelEntries } from '../harness/n8nEditor';

const PACKAGE = 'n8n-nodes-sign-survey-bookmark';
const pairs: Array<[string, INodeType, INodeType, RegExp]> = [
	['Signing', new Signing(), new SigningTrigger(), /start workflows when a document is created, sent, opened, signed, completed, rejected or cancelled$/],
	['Bookmarks', new Bookmarks(), new BookmarksTrigger(), /start workflows when bookmark records are created or changed$/],
	['Survey', new Survey(), new SurveyTrigger(), /start workflows when a survey response is created, updated or finished$/],
];

/** As n8n serves a node type to the editor: named with the package. */
const served = (node: INodeType): EditorNodeType => ({
	...node.description,
	name: `${PACKAGE}.${node.description.name}`,
});

describe('the nodes panel entry of each service', () => {
	const entries = n8nPanelEntries(pairs.flatMap(([, action, trigger]) => [served(action), served(trigger)]));

	it('is one entry per service: each trigger is merged into its action node', () => {
		expect([...entries.keys()].sort()).toEqual([`${PACKAGE}.bookmarks`, `${PACKAGE}.signing`, `${PACKAGE}.survey`]);
	});

	it.each(pairs)('%s: says what the action node does, then what starts a workflow', (_, action, _trigger, events) => {
		const shown = entries.get(`${PACKAGE}.${action.description.name}`)!;
		expect(shown.startsWith(`${action.description.description}; `)).toBe(true);
		expect(shown).toMatch(events);
		expect(shown).not.toMatch(/^Starts the workflow/);
	});
});
