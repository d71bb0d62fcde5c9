/**
 * The Formbricks flavour's contacts, personal and single-use links and response writes, as
 * Formbricks' source answers them at commit b66c1dd978af618a0e402bd3343b456bed68594c:
 * apps/web/modules/ee/contacts/api/v1/management/… and …/v2/management/contacts/… (contacts, with the
 * Enterprise licence check `getIsContactsEnabled`), apps/web/modules/api/v2/management/contact-attribute-keys/…,
 * …/v2/management/surveys/[surveyId]/contact-links/…, apps/web/app/api/v1/management/surveys/[surveyId]/singleUseIds/route.ts,
 * apps/web/modules/api/v2/management/responses/route.ts and …/[responseId]/route.ts. Every 2xx answer
 * matches the specs but for the deviations spec.ts lists.
 */
import { FORMBRICKS_SEED, startFormbricks, type FormbricksSandbox } from './formbricks';
import { readJwt } from './formbricks/links';
import { SPEC_DEVIATIONS, UNDOCUMENTED_ROUTES } from './formbricks/spec';
import { call, startReceiver, type Receiver } from './testkit';

const { surveys, contacts, segments, questions, workspaceId } = FORMBRICKS_SEED;

let fb: FormbricksSandbox;
const api = async (path: string, init: { method?: string; body?: unknown } = {}) =>
	await call(`${fb.url}${path}`, { ...init, headers: { 'x-api-key': fb.apiKey } });
const control = async (path: string, method = 'GET', body?: unknown) => await call(`${fb.url}/_sandbox/${path}`, { method, body });
const bulkContact = (attributes: Record<string, string>) => ({
	attributes: Object.entries(attributes).map(([key, value]) => ({ attributeKey: { key, name: key }, value })),
});

beforeAll(async () => {
	fb = await startFormbricks({ rateLimit: null });
});
afterAll(async () => {
	const { json } = await control('spec-violations');
	await fb.stop();
	expect(json.violations).toEqual([]);
});
beforeEach(async () => {
	await control('reset', 'POST');
});

describe('without an Enterprise licence', () => {
	beforeEach(async () => {
		await control('formbricks', 'PUT', { enterpriseLicence: false });
	});

	it('v1 contact routes answer 403 forbidden, with the reason', async () => {
		for (const path of [
			'/api/v1/management/contacts',
			`/api/v1/management/contacts/${contacts.lise}`,
			'/api/v1/management/contact-attributes',
			'/api/v1/management/contact-attribute-keys',
		]) {
			const { status, json } = await api(path);
			expect([path, status, json]).toEqual([
				path,
				403,
				{ code: 'forbidden', message: 'Contacts are only enabled for Enterprise Edition, please upgrade.', details: {} },
			]);
		}
	});

	it('v2 contact routes and personal links answer a bare 403; attribute keys do not check the licence', async () => {
		const forbidden = { error: { code: 403, message: 'Forbidden' } };
		expect((await api('/api/v2/management/contacts', { method: 'POST', body: { workspaceId, attributes: { email: 'a@example.org' } } })).json).toEqual(forbidden);
		expect((await api('/api/v2/management/contacts/bulk', { method: 'PUT', body: { workspaceId, contacts: [] } })).json).toEqual(forbidden);
		expect((await api(`/api/v2/management/surveys/${surveys.residency}/contact-links/contacts/${contacts.lise}`)).json).toEqual(forbidden);
		expect((await api(`/api/v2/management/surveys/${surveys.residency}/contact-links/segments/${segments.cohort2025}`)).json).toEqual(forbidden);
		expect((await api('/api/v2/management/contact-attribute-keys')).status).toBe(200);
	});

	it('the option at start-up: startFormbricks({ enterpriseLicence: false }), kept across resets', async () => {
		const unlicensed = await startFormbricks({ rateLimit: null, enterpriseLicence: false });
		try {
			await call(`${unlicensed.url}/_sandbox/reset`, { method: 'POST' });
			const { status } = await call(`${unlicensed.url}/api/v1/management/contacts`, { headers: { 'x-api-key': unlicensed.apiKey } });
			expect(status).toBe(403);
		} finally {
			await unlicensed.stop();
		}
	});
});

describe('contacts', () => {
	it('v1 lists contact rows without attributes, and the attribute table by key id', async () => {
		const listed = await api('/api/v1/management/contacts');
		expect(listed.json.data).toHaveLength(3);
		expect(Object.keys(listed.json.data[0])).toEqual(['id', 'createdAt', 'updatedAt', 'workspaceId']);
		const attributes = await api('/api/v1/management/contact-attributes');
		expect(attributes.json.data.filter((row: { contactId: string }) => row.contactId === contacts.lise)).toHaveLength(5);
		expect(Object.keys(attributes.json.data[0])).toEqual(['id', 'createdAt', 'updatedAt', 'attributeKeyId', 'contactId', 'value', 'valueNumber', 'valueDate']);
	});

	it('POST /api/v2/management/contacts: 201 {data}; the e-mail required, unique, every key existing', async () => {
		const made = await api('/api/v2/management/contacts', { method: 'POST', body: { workspaceId, attributes: { email: 'a@example.org', firstName: 'A' } } });
		expect(made.status).toBe(201);
		expect(made.json.data).toEqual({ id: expect.any(String), createdAt: expect.any(String), workspaceId, attributes: { email: 'a@example.org', firstName: 'A' } });
		const noEmail = await api('/api/v2/management/contacts', { method: 'POST', body: { workspaceId, attributes: { firstName: 'A' } } });
		expect([noEmail.status, noEmail.json.error.details]).toEqual([422, [{ field: 'attributes', issue: 'Email attribute is required' }]]);
		const twice = await api('/api/v2/management/contacts', { method: 'POST', body: { workspaceId, attributes: { email: 'a@example.org' } } });
		expect([twice.status, twice.json.error.details]).toEqual([409, [{ field: 'email', issue: 'contact with this email already exists' }]]);
		const unknownKey = await api('/api/v2/management/contacts', { method: 'POST', body: { workspaceId, attributes: { email: 'b@example.org', shoe_size: '42' } } });
		expect([unknownKey.status, unknownKey.json.error.details]).toEqual([400, [{ field: 'attributes', issue: 'attribute keys not found: shoe_size. ' }]]);
	});

	it('PUT …/contacts/bulk: creates and updates by e-mail, creates keys, renames keys to the names sent', async () => {
		const { status, json } = await api('/api/v2/management/contacts/bulk', {
			method: 'PUT',
			body: {
				workspaceId,
				contacts: [
					{ attributes: [{ attributeKey: { key: 'email', name: 'E-mail' }, value: 'lise.meitner@example.org' }, { attributeKey: { key: 'cohort', name: 'Cohort' }, value: '2026' }] },
					bulkContact({ email: 'new@example.org', shoe_size: '42' }),
				],
			},
		});
		expect([status, json]).toEqual([200, { data: { status: 'success', message: 'Contacts bulk upload successful' } }]);
		const all = (await control('contacts')).json.data as Array<{ id: string; attributes: Record<string, string> }>;
		expect(all.find((contact) => contact.id === contacts.lise)?.attributes.cohort).toBe('2026');
		expect(all.find((contact) => contact.attributes.email === 'new@example.org')?.attributes.shoe_size).toBe('42');
		const keys = (await api('/api/v2/management/contact-attribute-keys?limit=250')).json.data as Array<{ key: string; name: string; dataType: string }>;
		// Seeded as "Email": renamed to each name sent, the last one ("email") staying.
		expect(keys.find((key) => key.key === 'email')?.name).toBe('email');
		expect(keys.find((key) => key.key === 'shoe_size')).toMatchObject({ name: 'shoe_size', dataType: 'number' });
	});

	it('bulk: a user ID another contact has is skipped, 207 with data.meta.skippedContacts (a spec deviation)', async () => {
		const body = { workspaceId, contacts: [bulkContact({ email: 'x@example.org', userId: 'alumni-1' }), bulkContact({ email: 'y@example.org' })] };
		const { status, json } = await api('/api/v2/management/contacts/bulk', { method: 'PUT', body });
		expect(status).toBe(207);
		expect(json.data.meta).toEqual({ skippedContacts: [{ index: 0, userId: 'alumni-1' }] });
		expect(fb.service.specs.checkAnswer('PUT', '/api/v2/management/contacts/bulk', 207, json)).toContain("/data must have required property 'skippedContacts'");
		expect(SPEC_DEVIATIONS['PUT /api/v2/management/contacts/bulk']).toBeDefined();
	});

	it('bulk refuses the whole request: more than 250, duplicates, bad new keys', async () => {
		const tooMany = await api('/api/v2/management/contacts/bulk', {
			method: 'PUT',
			body: { workspaceId, contacts: Array.from({ length: 251 }, (_, index) => bulkContact({ email: `p${index}@example.org` })) },
		});
		// The spec's maxItems refuses it first, in v2's shape.
		expect(tooMany.status).toBe(422);
		const twins = await api('/api/v2/management/contacts/bulk', { method: 'PUT', body: { workspaceId, contacts: [bulkContact({ email: 'z@example.org' }), bulkContact({ email: 'z@example.org' })] } });
		expect(twins.json.error.details).toEqual([
			{ field: 'contacts', issue: 'Duplicate emails found in the records, please ensure each email is unique.', meta: { duplicateEmails: ['z@example.org'] } },
		]);
		const badKey = await api('/api/v2/management/contacts/bulk', { method: 'PUT', body: { workspaceId, contacts: [bulkContact({ email: 'z@example.org', 'Shoe Size': '42' })] } });
		expect([badKey.status, badKey.json.error.details[0].issue]).toEqual([400, expect.stringMatching(/^Invalid attribute key\(s\): Shoe Size\./)]);
	});

	it('DELETE /api/v1/management/contacts/{id}, which the spec omits: the contact, its attributes and its responses', async () => {
		expect(UNDOCUMENTED_ROUTES.filter((route) => route.path.test(`/api/v1/management/contacts/${contacts.lise}`)).map((route) => route.method)).toEqual(['DELETE']);
		const { status, json } = await api(`/api/v1/management/contacts/${contacts.lise}`, { method: 'DELETE' });
		expect([status, json]).toEqual([200, { data: { success: 'Contact deleted successfully' } }]);
		const responses = (await api(`/api/v1/management/responses?surveyId=${surveys.alumni}`)).json.data as Array<{ contact: { id: string } | null }>;
		expect(responses.map((response) => response.contact?.id)).toEqual(expect.not.arrayContaining([contacts.lise]));
		expect(responses).toHaveLength(2);
		await control('formbricks', 'PUT', { permission: 'write' });
		const unauthorized = await api(`/api/v1/management/contacts/${contacts.emmy}`, { method: 'DELETE' });
		expect([unauthorized.status, unauthorized.json.code]).toEqual([401, 'unauthorized']);
	});
});

describe('contact attribute keys (v2)', () => {
	it('POST: 201 {data}; name and description must be there (null allowed); safe identifiers only', async () => {
		const made = await api('/api/v2/management/contact-attribute-keys', { method: 'POST', body: { workspaceId, environmentId: workspaceId, key: 'job_title', name: null, description: null } });
		expect([made.status, made.json.data]).toEqual([201, expect.objectContaining({ key: 'job_title', name: 'Job Title', type: 'custom', dataType: 'string' })]);
		const noName = await api('/api/v2/management/contact-attribute-keys', { method: 'POST', body: { workspaceId, environmentId: workspaceId, key: 'x_y', description: null } });
		expect(noName.status).toBe(422);
		const unsafe = await api('/api/v2/management/contact-attribute-keys', { method: 'POST', body: { workspaceId, environmentId: workspaceId, key: 'Job', name: null, description: null } });
		expect(unsafe.json.error.details).toEqual([
			{ field: 'key', issue: 'Key must be a safe identifier: only lowercase letters, numbers, and underscores, and must start with a letter' },
		]);
	});

	it('GET: paged, with meta.total', async () => {
		const { json } = await api('/api/v2/management/contact-attribute-keys?limit=2&skip=1&order=asc');
		expect(json.data.map((key: { key: string }) => key.key)).toEqual(['email', 'firstName']);
		expect(json.meta).toEqual({ total: 6, limit: 2, offset: 1 });
	});
});

describe('personal links', () => {
	const contactLink = (surveyId: string, contactId: string, query = '') =>
		api(`/api/v2/management/surveys/${surveyId}/contact-links/contacts/${contactId}${query}`);

	it('a contact’s link: /c/<HS256 token>, expiring after the days asked', async () => {
		const { status, json } = await contactLink(surveys.residency, contacts.lise, '?expirationDays=7');
		expect(status).toBe(200);
		expect(json.data.surveyUrl).toMatch(/^https:\/\/forms\.residency\.example\.org\/c\/[\w-]+\.[\w-]+\.[\w-]+$/);
		const token = readJwt(json.data.surveyUrl.split('/c/')[1]);
		expect(Number(token.exp) - Number(token.iat)).toBe(7 * 24 * 3600);
		expect(Date.parse(json.data.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
		expect((await contactLink(surveys.residency, contacts.lise)).json.data.expiresAt).toBeNull();
	});

	it('refusals: not a link survey, already responded, unknown contact, expirationDays beyond 365', async () => {
		expect((await contactLink(surveys.alumni, contacts.lise)).json.error.details).toEqual([{ field: 'surveyId', issue: 'Not a link survey' }]);
		await control(`surveys/${surveys.alumni}`, 'PATCH', { type: 'link' });
		expect((await contactLink(surveys.alumni, contacts.lise)).json.error.details).toEqual([{ field: 'contactId', issue: 'Already responded' }]);
		expect((await contactLink(surveys.residency, 'cnosuchcontact00000000000')).json.error).toEqual({ code: 404, message: 'Not Found', details: [{ field: 'contact', issue: 'not found' }] });
		expect((await contactLink(surveys.residency, contacts.lise, '?expirationDays=400')).status).toBe(422);
	});

	it('a segment’s links: its contacts newest first, paged with the total, the attributes asked for', async () => {
		const { json } = await api(`/api/v2/management/surveys/${surveys.residency}/contact-links/segments/${segments.cohort2025}?limit=1&attributeKeys=email,nosuchkey`);
		expect(json.data).toEqual([{ contactId: contacts.emmy, attributes: { email: 'emmy.noether@example.org' }, surveyUrl: expect.stringContaining('/c/'), expiresAt: null }]);
		expect(json.meta).toEqual({ total: 2, limit: 1, offset: 0 });
	});

	it('a segment’s links of a survey not in progress: a bare 403; of an unknown survey: a 500', async () => {
		await control(`surveys/${surveys.residency}`, 'PATCH', { status: 'paused' });
		expect((await api(`/api/v2/management/surveys/${surveys.residency}/contact-links/segments/${segments.cohort2025}`)).json).toEqual({ error: { code: 403, message: 'Forbidden' } });
		expect((await api(`/api/v2/management/surveys/cnosuchsurvey000000000000/contact-links/segments/${segments.cohort2025}`)).status).toBe(500);
	});
});

describe('single-use links', () => {
	const links = (query = '') => api(`/api/v1/management/surveys/${surveys.residency}/singleUseIds${query}`);

	it('need single-use links on in the survey, and a key with write access', async () => {
		expect((await links()).json).toEqual({ code: 'bad_request', message: 'Single use links are not enabled for this survey', details: {} });
		await control(`surveys/${surveys.residency}`, 'PATCH', { singleUse: { enabled: true, isEncrypted: false } });
		await control('formbricks', 'PUT', { permission: 'read' });
		expect((await links()).json.code).toBe('unauthorized');
	});

	it('10 by default, up to 5,000; signed ids (suId, suToken) or encrypted ones', async () => {
		await control(`surveys/${surveys.residency}`, 'PATCH', { singleUse: { enabled: true, isEncrypted: false } });
		const signed = (await links()).json.data as string[];
		expect(signed).toHaveLength(10);
		const url = new URL(signed[0]);
		expect(url.pathname).toBe(`/s/${surveys.residency}`);
		expect(url.searchParams.get('suToken')).toMatch(/^[0-9a-f]{64}$/);
		expect((await links('?limit=5000')).json.data).toHaveLength(5000);
		expect((await links('?limit=5001')).status).toBe(400);
		await control(`surveys/${surveys.residency}`, 'PATCH', { singleUse: { enabled: true, isEncrypted: true } });
		expect(new URL((await links('?limit=1')).json.data[0]).searchParams.has('suToken')).toBe(false);
	});
});

describe('response writes (v2)', () => {
	let receiver: Receiver;
	beforeEach(async () => {
		receiver = await startReceiver();
		await api('/api/v1/webhooks', {
			method: 'POST',
			body: { url: receiver.url, triggers: ['responseCreated', 'responseUpdated', 'responseFinished'], workspaceId },
		});
	});
	afterEach(async () => await receiver.close());

	it('POST: 201 {data: row}, stored as given (meta, variables, dates), and the pipeline runs', async () => {
		const { status, json } = await api('/api/v2/management/responses', {
			method: 'POST',
			body: {
				surveyId: surveys.residency,
				finished: true,
				data: { [questions.residency.fullName]: 'Imported Person' },
				createdAt: '2026-01-02T03:04:05.000Z',
				updatedAt: '2026-01-02T03:04:06.000Z',
				meta: { source: 'n8n' },
				variables: { n8nWrittenAt: '2026-01-02T03:04:06.000Z' },
				userId: 'alumni-1',
			},
		});
		expect(status).toBe(201);
		// `{data: row}` where the spec has the row alone (a documented deviation).
		expect(fb.service.specs.checkAnswer('POST', '/api/v2/management/responses', 201, json)).not.toEqual([]);
		expect(fb.service.specs.checkAnswer('POST', '/api/v2/management/responses', 201, json.data)).toEqual([]);
		expect(json.data).toMatchObject({
			createdAt: '2026-01-02T03:04:05.000Z',
			updatedAt: '2026-01-02T03:04:06.000Z',
			meta: { source: 'n8n' },
			variables: { n8nWrittenAt: '2026-01-02T03:04:06.000Z' },
			contactId: contacts.rosalind,
			contactAttributes: expect.objectContaining({ userId: 'alumni-1' }),
		});
		await fb.idle();
		expect(receiver.received.map((delivery) => (delivery.body as { event: string }).event)).toEqual(['responseCreated', 'responseFinished']);
	});

	it('PUT: the whole response required; what is given replaces what was stored; responseUpdated, then responseFinished', async () => {
		const created = (await api('/api/v2/management/responses', {
			method: 'POST',
			body: { surveyId: surveys.residency, finished: false, data: { [questions.residency.fullName]: 'A', [questions.residency.email]: 'a@example.org' } },
		})).json.data;
		const partial = await api(`/api/v2/management/responses/${created.id}`, { method: 'PUT', body: { finished: true } });
		expect(partial.status).toBe(422);
		expect(partial.json.error.details.map((detail: { field: string }) => detail.field)).toEqual(
			expect.arrayContaining(['createdAt', 'updatedAt', 'contactId', 'data', 'meta', 'variables']),
		);
		const { id, surveyId, ...fields } = created;
		const replaced = await api(`/api/v2/management/responses/${id}`, {
			method: 'PUT',
			body: { ...fields, language: 'default', finished: true, data: { [questions.residency.fullName]: 'B' } },
		});
		expect(replaced.status).toBe(200);
		expect(replaced.json.data).toMatchObject({ id, surveyId, finished: true, data: { [questions.residency.fullName]: 'B' } });
		await fb.idle();
		expect(receiver.received.map((delivery) => (delivery.body as { event: string }).event)).toEqual(['responseCreated', 'responseUpdated', 'responseFinished']);
	});
});
