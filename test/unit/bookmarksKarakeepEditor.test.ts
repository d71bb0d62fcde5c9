/**
 * Issue 25: a user looks for their platform by name. Searching "Karakeep" in n8n's nodes panel
 * finds the Bookmarks node, its polling trigger and the webhook trigger (their codex aliases, as
 * n8n's loader joins the codex files to the classes), and the credential says it works with
 * Karakeep. test/e2e/package.test.ts checks the same search on what a real n8n serves.
 */
import { BookmarkApi } from '../../credentials/BookmarkApi.credentials';
import { n8nPanelSearch, servedPackageNodeTypes } from '../harness/n8nEditor';

const PACKAGE = 'n8n-nodes-sign-survey-bookmark';

describe('Karakeep by name', () => {
	const nodeTypes = servedPackageNodeTypes();

	it('the nodes panel finds the Bookmarks node and both its triggers, and nothing else, for "Karakeep"', () => {
		const bookmarks = [`${PACKAGE}.bookmarks`, `${PACKAGE}.bookmarksTrigger`, `${PACKAGE}.bookmarksWebhookTrigger`];
		expect(n8nPanelSearch(nodeTypes, 'Karakeep').sort()).toEqual(bookmarks);
		expect(n8nPanelSearch(nodeTypes, 'karakeep').sort()).toEqual(bookmarks);
	});

	it('the credential names Karakeep and offers it as its API, the documented API by default', () => {
		const credential = new BookmarkApi();
		expect(credential.displayName).toMatch(/Karakeep/);
		const api = credential.properties.find((property) => property.name === 'api')!;
		expect(api.default).toBe('documented');
		expect((api.options as Array<{ value: string }>).map((option) => option.value)).toEqual(['documented', 'karakeep']);
	});
});
