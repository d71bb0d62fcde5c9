/**
 * Issue 42, Privacy: Bookmark → Get Content as an agent's tool reads at most 20,000 characters when
 * Max Characters is left at 0 (a crawled page or a PDF can fill an agent's context), and a labelled
 * name inside running text is redacted; an ordinary node still reads the whole content. On the real
 * Karakeep, behind the validating mock of its OpenAPI file.
 */
import { expectStatus } from './api';
import { byId, karakeepBehindSpec, runNode } from './node';

const servers = karakeepBehindSpec();

/** Sentences run together as a crawler or a PDF's text gives them, with a labelled name in the middle. */
const SENTENCES = 'The jury met on Tuesday. Applicant: Ada Lovelace presented her notes on the engine and answered questions. ';

test('as a tool, Max Characters 0 reads the first 20,000 characters, names in running text redacted; a node reads all', async () => {
	const { karakeep, viaSpec } = servers;
	const text = SENTENCES.repeat(Math.ceil(30_000 / SENTENCES.length)).trim();
	const record = (await expectStatus(201, karakeep, 'POST', '/bookmarks', { body: { type: 'text', text } })).json as { id: string };
	const parameters = { resource: 'bookmark', operation: 'getContent', recordId: byId(record.id), format: 'text' };

	const [asTool] = (await runNode(viaSpec, parameters, { tool: true })).json;
	expect(asTool).toMatchObject({ complete: false, totalCharacters: text.length });
	expect(asTool.characters).toBeLessThanOrEqual(20_000);
	expect(asTool.characters).toBeGreaterThan(19_000);
	expect(String(asTool.content)).not.toMatch(/Ada|Lovelace/);
	expect(String(asTool.content)).toContain('Applicant: NAME_1 presented her notes');

	const [ordinary] = (await runNode(viaSpec, parameters)).json;
	expect(ordinary).toMatchObject({ complete: true, characters: text.length });
	expect(String(ordinary.content)).toContain('Applicant: Ada Lovelace presented her notes');
});
