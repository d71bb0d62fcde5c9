/**
 * Contact and Contact Attribute Key with the Survey API credential set to Formbricks, against the
 * Formbricks flavour of the sandbox (test/sandbox/formbricks/routesContacts.ts: Formbricks' contact
 * routes at b66c1dd, apps/web/modules/ee/contacts/api/… and apps/web/modules/api/v2/management/contact-attribute-keys/…).
 * Every request is held to Formbricks' OpenAPI files, and every answer too (but for the
 * deviations its source makes, spec.ts).
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Survey } from '../../nodes/Survey/Survey.node';
import { FORMBRICKS_SEED } from '../sandbox';
import { executeContext, type ExecuteOptions, type Parameters } from './helpers/context';
import { formbricksForEachTest } from './helpers/formbricks';

jest.setTimeout(120_000);

const { contacts: seeded, surveys, workspaceId } = FORMBRICKS_SEED;

describe('Contact and Contact Attribute Key on Formbricks', () => {
	const harness = formbricksForEachTest();
	const node = new Survey();

	const run = async (parameters: Parameters | Parameters[], options: Partial<ExecuteOptions> = {}) => {
		const { context } = executeContext({ parameters, credentials: harness().credentials(), ...options });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const sent = async () => (await harness().requests()).map((request) => `${request.method} ${request.path}`);
	const sandboxContacts = async () => (await harness().control<{ data: Array<IDataObject & { attributes: Record<string, string> }> }>('contacts')).data;


	describe('Contact → Create', () => {
		it('creates the contact with its attributes, a custom key the workspace lacks created first', async () => {
			const [contact] = await run({
				resource: 'contact',
				operation: 'create',
				email: 'ines.vidal@example.org',
				additionalFields: { firstName: 'Inès', lastName: 'Vidal', userId: 'applicant-7' },
				customAttributes: { attribute: [{ key: 'cohort', value: '2026' }, { key: 'portfolio_url', value: 'https://ines.example.org' }] },
			});
			expect(contact).toEqual({
				id: expect.any(String),
				createdAt: expect.any(String),
				workspaceId,
				attributes: {
					email: 'ines.vidal@example.org',
					firstName: 'Inès',
					lastName: 'Vidal',
					userId: 'applicant-7',
					cohort: '2026',
					portfolio_url: 'https://ines.example.org',
				},
			});
			expect(await sent()).toEqual([
				'GET /api/v1/management/contact-attribute-keys',
				'GET /api/v1/management/me',
				'POST /api/v2/management/contact-attribute-keys',
				'POST /api/v2/management/contacts',
			]);
			const keys = (await harness().requests()).find((request) => request.path.endsWith('/contact-attribute-keys') && request.method === 'POST');
			expect(keys?.body).toEqual({ workspaceId, environmentId: workspaceId, key: 'portfolio_url', name: 'Portfolio Url', description: null });
			expect((await sandboxContacts()).find((row) => row.id === contact.id)?.attributes.portfolio_url).toBe('https://ines.example.org');
		});

		it('Create Missing Attribute Keys off: names the missing keys and sends nothing', async () => {
			const error = await run({
				resource: 'contact',
				operation: 'create',
				email: 'ines.vidal@example.org',
				customAttributes: { attribute: [{ key: 'portfolio_url', value: 'x' }, { key: 'company_size', value: '5' }] },
				options: { createMissingKeys: false },
			}).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Custom Attributes: the workspace has no attribute key "portfolio_url", "company_size"');
			expect(error.description).toContain('Create Missing Attribute Keys');
			expect(await sent()).toEqual(['GET /api/v1/management/contact-attribute-keys', 'GET /api/v1/management/me']);
		});

		it('refuses a key Formbricks could not create before anything is written', async () => {
			const error = await run({
				resource: 'contact',
				operation: 'create',
				email: 'ines.vidal@example.org',
				customAttributes: { attribute: [{ key: 'Company Size', value: '5' }] },
			}).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				'Custom Attributes: the workspace has no attribute key "Company Size", and a new key may hold only lowercase letters, digits and underscores, starting with a letter',
			);
			expect((await sent()).filter((request) => request.startsWith('POST'))).toEqual([]);
			const second = await run(
				[
					{ resource: 'contact', operation: 'create', email: 'ada@example.org' },
					{ resource: 'contact', operation: 'create', email: 'ines.vidal@example.org', customAttributes: { attribute: [{ key: 'Company Size', value: '5' }] } },
				],
				{ items: [{}, {}] },
			).catch((e) => e);
			expect(second.message).toMatch(/^Custom Attributes: .* \[item 1\]$/);
			expect(second.context.itemIndex).toBe(1);
			expect((await sent()).filter((request) => request.startsWith('POST'))).toEqual(['POST /api/v2/management/contacts']);
		});

		it('an e-mail address the workspace has: Formbricks’ 409, pointing at Create Many', async () => {
			const error = await run({ resource: 'contact', operation: 'create', email: 'lise.meitner@example.org' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('409');
			expect(error.message).toBe('The Formbricks server answered 409: Conflict: email: contact with this email already exists');
			expect(error.description).toContain('Create Many updates existing contacts');
		});

		it('refuses a bad e-mail address before anything is sent', async () => {
			const error = await run({ resource: 'contact', operation: 'create', email: 'not an address' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Email: "not an address" is not an e-mail address');
			expect(await sent()).toEqual([]);
		});
	});

	describe('Contact → Create Many', () => {
		const item = (email: string, extra: Parameters = {}): Parameters => ({ resource: 'contact', operation: 'createMany', email, ...extra });

		it('one report per item: created, updated, unchanged, skipped and refused, with the reasons', async () => {
			const out = await run([
				item('new.one@example.org', { additionalFields: { firstName: 'New' }, customAttributes: { attribute: [{ key: 'city', value: 'Lyon' }] } }),
				item('lise.meitner@example.org', { customAttributes: { attribute: [{ key: 'cohort', value: '2026' }] } }),
				item('emmy.noether@example.org', { additionalFields: { firstName: 'Emmy' } }),
				item('other@example.org', { additionalFields: { userId: 'alumni-1' } }),
				item('new.one@example.org'),
				item('bad@example.org', { customAttributes: { attribute: [{ key: 'Favourite Colour', value: 'blue' }] } }),
			], { items: [{}, {}, {}, {}, {}, {}] });
			expect(out.map((report) => [report.email, report.status])).toEqual([
				['new.one@example.org', 'created'],
				['lise.meitner@example.org', 'updated'],
				['emmy.noether@example.org', 'unchanged'],
				['other@example.org', 'skipped'],
				['new.one@example.org', 'refused'],
				['bad@example.org', 'refused'],
			]);
			const contacts = await sandboxContacts();
			const created = contacts.find((contact) => contact.attributes.email === 'new.one@example.org')!;
			expect(out[0].contactId).toBe(created.id);
			expect(created.attributes).toEqual({ email: 'new.one@example.org', firstName: 'New', city: 'Lyon' });
			expect(out[1]).toMatchObject({ contactId: seeded.lise });
			expect(contacts.find((contact) => contact.id === seeded.lise)?.attributes.cohort).toBe('2026');
			expect(out[3].reason).toBe('Another contact has the user ID "alumni-1"');
			expect(out[4].reason).toBe('The same e-mail address as item 0 of this run');
			expect(out[5].reason).toBe(
				'the workspace has no attribute key "Favourite Colour", and a new key may hold only lowercase letters, digits and underscores, starting with a letter',
			);
			expect(contacts.some((contact) => contact.attributes.email === 'bad@example.org')).toBe(false);
			// Keys keep their names: the bulk route renames a key to the name it is sent with.
			const bulk = (await harness().requests()).find((request) => request.path === '/api/v2/management/contacts/bulk');
			const sentKeys = ((bulk?.body as IDataObject).contacts as IDataObject[]).flatMap((contact) => contact.attributes as IDataObject[]).map((attribute) => attribute.attributeKey);
			expect(sentKeys).toContainEqual({ key: 'firstName', name: 'First Name' });
			expect(sentKeys).toContainEqual({ key: 'city', name: 'City' });
		});

		it('sends 600 contacts in requests of 250, 250 and 100', async () => {
			const emails = Array.from({ length: 600 }, (_, index) => `person${index}@example.org`);
			const out = await run(emails.map((email) => item(email)), { items: emails.map(() => ({})) });
			expect(out.every((report) => report.status === 'created' && typeof report.contactId === 'string')).toBe(true);
			const bulks = (await harness().requests()).filter((request) => request.path === '/api/v2/management/contacts/bulk');
			expect(bulks.map((request) => ((request.body as IDataObject).contacts as unknown[]).length)).toEqual([250, 250, 100]);
			expect((await sandboxContacts()).length).toBe(3 + 600);
		});

		it('a failed batch names the items the batches before it wrote, leaving out refused ones', async () => {
			const emails = Array.from({ length: 252 }, (_, index) => `person${index === 1 ? 0 : index}@example.org`);
			let bulks = 0;
			const onRequest = async (request: { url?: string }) => {
				if (String(request.url).endsWith('/contacts/bulk') && ++bulks === 2) {
					await harness().control('faults', 'PUT', { status: 500, count: 1, path: '/contacts/bulk', afterHandling: true });
				}
			};
			const error = await run(emails.map((email) => item(email)), { items: emails.map(() => ({})), onRequest }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('500');
			expect(error.description).toContain('The contacts of items 0 and 2 to 250 of this run were written before this failure.');
			expect((await sandboxContacts()).length).toBe(3 + 251);
		});

		it('a bad input item stops the run before anything is sent; with Continue On Fail it alone fails', async () => {
			const parameters = [item('fine@example.org'), item('broken')];
			const error = await run(parameters, { items: [{}, {}] }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('Email: "broken" is not an e-mail address [item 1]');
			expect(await sent()).toEqual([]);
			const out = await run(parameters, { items: [{}, {}], continueOnFail: true });
			expect(out[0]).toMatchObject({ status: 'created', email: 'fine@example.org' });
			expect(out[1]).toEqual({ error: 'Email: "broken" is not an e-mail address [item 1]' });
		});
	});

	describe('Contact → Create Many, a later batch failing (issue 42)', () => {
		const items = Array.from({ length: 260 }, (_, index) => ({ resource: 'contact', operation: 'createMany', email: `member.${index}@example.org` }));
		/** Formbricks answers the second bulk request (250 a batch) with a 500. */
		const failSecondBatch = async (request: IHttpRequestOptions) => {
			if (!String(request.url).endsWith('/contacts/bulk')) return;
			bulks++;
			if (bulks === 2) await harness().control('faults', 'PUT', { status: 500, count: 1, path: '/contacts/bulk', afterHandling: true });
		};
		let bulks = 0;
		beforeEach(() => (bulks = 0));

		it('with Continue On Fail: the items written are output as written, with their ids; only the failed batch\'s are errors', async () => {
			const out = await run(items, { items: items.map(() => ({})), continueOnFail: true, onRequest: failSecondBatch });
			expect(out).toHaveLength(260);
			const stored = new Map((await sandboxContacts()).map((contact) => [contact.attributes.email, contact.id]));
			for (const [index, report] of out.slice(0, 250).entries()) {
				expect(report).toMatchObject({ status: 'created', email: `member.${index}@example.org` });
				expect(report.contactId).toBe(stored.get(`member.${index}@example.org`));
			}
			for (const report of out.slice(250)) {
				expect(report.error).toMatch(/^The Formbricks server answered 500/);
			}
		});
	});

	describe('Contact → Get, Get Many and Delete', () => {
		it('Get: the contact with its attributes by key', async () => {
			const [lise] = await run({ resource: 'contact', operation: 'get', contactId: seeded.lise });
			expect(lise).toEqual({
				id: seeded.lise,
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				workspaceId,
				attributes: { userId: 'alumni-2', email: 'lise.meitner@example.org', firstName: 'Lise', lastName: 'Meitner', cohort: '2024' },
			});
		});

		it('Get of an unknown contact: Formbricks’ 404', async () => {
			const error = await run({ resource: 'contact', operation: 'get', contactId: 'cnosuchcontact00000000000' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('The Formbricks server answered 404: Contact not found');
		});

		it('Get Many: every contact with its attributes, Limit and the e-mail filter', async () => {
			const all = await run({ resource: 'contact', operation: 'getMany', returnAll: true });
			expect(all.map((contact) => (contact.attributes as IDataObject).email)).toEqual([
				'rosalind.franklin@example.org',
				'lise.meitner@example.org',
				'emmy.noether@example.org',
			]);
			expect(await run({ resource: 'contact', operation: 'getMany', returnAll: false, limit: 2 })).toHaveLength(2);
			const [emmy] = await run({ resource: 'contact', operation: 'getMany', returnAll: true, filters: { email: 'Emmy.Noether@example.org' } });
			expect(emmy.id).toBe(seeded.emmy);
		});

		it('Delete: the contact is gone (its responses with it); again: 404, or alreadyGone', async () => {
			const [out] = await run({ resource: 'contact', operation: 'delete', contactId: seeded.lise });
			expect(out).toEqual({ deleted: true, contactId: seeded.lise, alreadyGone: false });
			expect((await harness().api(`/api/v1/management/contacts/${seeded.lise}`)).status).toBe(404);
			const alumni = await harness().api<{ data: IDataObject[] }>(`/api/v1/management/responses?surveyId=${surveys.alumni}`);
			expect(alumni.json.data.map((response) => (response.contact as IDataObject | null)?.id)).not.toContain(seeded.lise);
			const again = await run({ resource: 'contact', operation: 'delete', contactId: seeded.lise }).catch((e) => e);
			expect(again.message).toBe('The Formbricks server answered 404: Contact not found');
			const [gone] = await run({ resource: 'contact', operation: 'delete', contactId: seeded.lise, ifAlreadyGone: 'succeed' });
			expect(gone).toEqual({ deleted: true, contactId: seeded.lise, alreadyGone: true });
		});
	});

	describe('without an Enterprise licence', () => {
		beforeEach(async () => {
			await harness().control('formbricks', 'PUT', { enterpriseLicence: false });
			await harness().control('requests', 'DELETE');
		});

		it('v1 reads: Formbricks’ 403 says it, and the node says what contacts need', async () => {
			const error = await run({ resource: 'contact', operation: 'getMany', returnAll: true }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('403');
			expect(error.message).toBe('The Formbricks server answered 403: Contacts are only enabled for Enterprise Edition, please upgrade.');
			expect(error.description).toContain('Contacts and personal links need Formbricks\' Enterprise licence');
		});

		it('Create Many with Continue On Fail: the refusal is every item’s, and the run asks once', async () => {
			const items = ['a@example.org', 'b@example.org', 'c@example.org'].map((email) => ({ resource: 'contact', operation: 'createMany', email }));
			const out = await run(items, { items: [{}, {}, {}], continueOnFail: true });
			expect(out).toEqual(items.map(() => ({ error: 'The Formbricks server answered 403: Contacts are only enabled for Enterprise Edition, please upgrade.' })));
			expect(await sent()).toEqual(['GET /api/v1/management/contact-attribute-keys']);
		});

		it('v2 writes: a bare 403, explained the same way', async () => {
			const keys = await harness().api<{ data: IDataObject[] }>('/api/v2/management/contact-attribute-keys');
			expect(keys.status).toBe(200);
			const response = await fetch(`${harness().fb.url}/api/v2/management/contacts`, {
				method: 'POST',
				headers: { 'x-api-key': harness().fb.apiKey, 'content-type': 'application/json' },
				body: JSON.stringify({ workspaceId, attributes: { email: 'a@example.org' } }),
			});
			expect(response.status).toBe(403);
			expect(await response.json()).toEqual({ error: { code: 403, message: 'Forbidden' } });
			const error = await run({ resource: 'contact', operation: 'create', email: 'a@example.org' }).catch((e) => e);
			expect(error.httpCode).toBe('403');
			expect(error.description).toContain('Enterprise licence');
		});
	});

	describe('as an AI agent’s tool', () => {
		const tool = { tool: true, node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' } };

		it('attributes are redacted unless Personal Data is Keep', async () => {
			const [lise] = await run({ resource: 'contact', operation: 'get', contactId: seeded.lise }, tool);
			expect(lise.attributes).toEqual({
				userId: expect.stringMatching(/^PERSONAL_\d+$/),
				email: 'EMAIL_1',
				firstName: expect.stringMatching(/^NAME_\d+$/),
				lastName: expect.stringMatching(/^NAME_\d+$/),
				cohort: expect.stringMatching(/^PERSONAL_\d+$/),
			});
			expect(JSON.stringify(lise)).not.toMatch(/Lise|Meitner|alumni-2|2024/);
			expect(lise.id).toBe(seeded.lise);
			const [kept] = await run({ resource: 'contact', operation: 'get', contactId: seeded.lise, options: { personalData: 'keep' } }, tool);
			expect((kept.attributes as IDataObject).email).toBe('lise.meitner@example.org');
		});

		it('writes need the author’s consent switch', async () => {
			const error = await run({ resource: 'contact', operation: 'create', email: 'a@example.org' }, tool).catch((e) => e);
			expect(error.message).toBe('Writing or deleting contacts is not allowed for an AI agent');
			expect(await sent()).toEqual([]);
			const [made] = await run({ resource: 'contact', operation: 'create', email: 'a@example.org', allowAsTool: true }, tool);
			expect((made.attributes as IDataObject).email).toBe('EMAIL_1');
		});
	});

	describe('Contact Attribute Key', () => {
		it('Get Many lists the default keys and the custom ones', async () => {
			const keys = await run({ resource: 'contactAttributeKey', operation: 'getMany', returnAll: true });
			expect(keys.map((key) => key.key)).toEqual(['userId', 'email', 'firstName', 'lastName', 'language', 'cohort']);
			expect(keys[1]).toMatchObject({ name: 'Email', type: 'default', isUnique: true, workspaceId });
		});

		it('Create: the key with its name, or Formbricks’ title case of it', async () => {
			const [made] = await run({ resource: 'contactAttributeKey', operation: 'create', key: 'company_size', additionalFields: { dataType: 'number' } });
			expect(made).toMatchObject({ key: 'company_size', name: 'Company Size', type: 'custom', dataType: 'number', workspaceId });
			const again = await run({ resource: 'contactAttributeKey', operation: 'create', key: 'company_size' }).catch((e) => e);
			expect(again.message).toBe('The Formbricks server answered 409: Conflict: contactAttributeKey: Contact attribute key with "company_size" already exists');
		});

		it('Create with a read-only key: a 403 about the key\'s access, not the licence this route does not need', async () => {
			await harness().control('formbricks', 'PUT', { permission: 'read' });
			const error = await run({ resource: 'contactAttributeKey', operation: 'create', key: 'company_size' }).catch((e) => e);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.httpCode).toBe('403');
			expect(error.description).toContain('"Write" access to the workspace');
			expect(error.description).not.toContain('Enterprise');
		});

		it('refuses a key Formbricks would not take before sending it', async () => {
			const error = await run({ resource: 'contactAttributeKey', operation: 'create', key: 'first_name' }).catch((e) => e);
			expect(error.message).toBe('Key: "first_name" is reserved by Formbricks for a default attribute');
			expect(await sent()).toEqual([]);
		});
	});

	it('on the documented API, each operation fails at once naming the Formbricks API', async () => {
		const { context, requests } = executeContext({
			parameters: { resource: 'contact', operation: 'getMany', returnAll: true },
			credentials: { surveyApi: { api: 'documented', baseUrl: harness().fb.url, apiKey: 'irrelevant' } },
		});
		const error = await node.execute.call(context).catch((e) => e);
		expect(error.message).toBe('Contact → Get Many is available with the Formbricks API; this credential uses the documented API');
		expect(requests).toEqual([]);
	});
});
