/**
 * Issue 26: a user looks for their platform by name. Searching "Documenso" in n8n's nodes panel
 * finds the Signing node and its trigger (their codex aliases, as n8n's loader joins the codex
 * files to the classes), and the credential says it works with Documenso. The end-to-end test
 * test/e2e/package.test.ts checks the same search on what a real n8n serves.
 */
import { SigningApi } from '../../credentials/SigningApi.credentials';
import { n8nPanelSearch, servedPackageNodeTypes } from '../harness/n8nEditor';

const PACKAGE = 'n8n-nodes-sign-survey-bookmark';

describe('Documenso by name', () => {
	const nodeTypes = servedPackageNodeTypes();

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
