/**
 * Issue 26: a user looks for their platform by name. Searching "Documenso" in n8n's nodes panel
 * finds the Signing node and its trigger (their codex aliases, as n8n's loader joins the codex
 * files to the classes), and the credential says it works with Documenso. The end-to-end test
 * test/e2e/package.test.ts checks the same search on what a real n8n serves.
 */
import { SigningApi } from '../../credentials/SigningApi.credentials';
import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { BookmarksTrigger } from '../../nodes/Bookmarks/BookmarksTrigger.node';
import { BookmarksWebhookTrigger } from '../../nodes/Bookmarks/BookmarksWebhookTrigger.node';
import { Signing } from '../../nodes/Signing/Signing.node';
import { SigningTrigger } from '../../nodes/Signing/SigningTrigger.node';
import { Survey } from '../../nodes/Survey/Survey.node';
import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { n8nPanelSearch, servedNodeType } from '../harness/n8nEditor';

const PACKAGE = 'n8n-nodes-sign-survey-bookmark';

describe('Documenso by name', () => {
	const nodeTypes = [
		servedNodeType(new Signing(), 'Signing'),
		servedNodeType(new SigningTrigger(), 'Signing'),
		servedNodeType(new Bookmarks(), 'Bookmarks'),
		servedNodeType(new BookmarksTrigger(), 'Bookmarks'),
		servedNodeType(new BookmarksWebhookTrigger(), 'Bookmarks'),
		servedNodeType(new Survey(), 'Survey'),
		servedNodeType(new SurveyTrigger(), 'Survey'),
	];

	it('the nodes panel finds the Signing node and its trigger, and nothing else, for "Documenso"', () => {
		expect(n8nPanelSearch(nodeTypes, 'Documenso').sort()).toEqual([`${PACKAGE}.signing`, `${PACKAGE}.signingTrigger`]);
		expect(n8nPanelSearch(nodeTypes, 'documenso')).toHaveLength(2);
	});

	it('the credential names Documenso and offers it as its API, the documented API by default', () => {
		const credential = new SigningApi();
		expect(credential.displayName).toMatch(/Documenso/);
		const api = credential.properties.find((property) => property.name === 'api')!;
		expect(api.default).toBe('documented');
		expect((api.options as Array<{ value: string }>).map((option) => option.value)).toEqual(['documented', 'documenso']);
	});
});
