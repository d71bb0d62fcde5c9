/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/** Contract tests for the signing service's wider API (CONTRACTS.md Part 2, section 4). */
import { type Sandbox, SEED, startSandbox } from './index';
import { SEED_TEMPLATE_FIELDS } from './seed';
import { call } from './testkit';

const logger = process.env.SANDBOX_LOG === '1';

describe('signing service contract, Part 2 §4', () => {
	let sandbox: Sandbox;
	const auth = () => ({ authorization: `Bearer ${sandbox.signing.apiKey}` });
	const api = (path: string) => `${sandbox.signing.url}${path}`;
	const get = async (path: string, headers: Record<string, string> = auth()) =>
		await call(api(path), { headers });
	const control = async (route: string, body?: unknown, method = 'POST') =>
		await call(api(`/_sandbox${route}`), { method, body });
	const addTemplate = async (title: string) => (await control('/templates', { title })).json;

	beforeAll(async () => {
		sandbox = await startSandbox({ ports: {}, logger, webhookRetryDelayMs: 50 });
	});
	afterAll(async () => {
		await sandbox.stop();
	});
	beforeEach(async () => {
		await control('/reset');
	});

	describe('GET /api/v2/templates', () => {
		it('lists the seeded templates newest first with the Template shape and a pagination object', async () => {
			const answer = await get('/api/v2/templates');
			expect(answer.status).toBe(200);
			expect(Object.keys(answer.json)).toEqual(['data', 'pagination']);
			expect(answer.json.pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
			expect(answer.json.data.map((template: { id: string }) => template.id)).toEqual([
				SEED.residencyTemplateId,
				SEED.ndaTemplateId,
			]);
			const residency = answer.json.data[0];
			expect(residency).toEqual({
				id: SEED.residencyTemplateId,
				title: 'Residency agreement',
				createdAt: expect.stringMatching(/Z$/),
				updatedAt: expect.stringMatching(/Z$/),
				recipients: [
					{ placeholder: 'Applicant', role: 'SIGNER' },
					{ placeholder: 'Director', role: 'APPROVER' },
				],
				fields: expect.any(Array),
			});
			// Each seeded template offers every field type, options only on the dropdown.
			for (const template of answer.json.data) {
				const types = template.fields.map((field: { type: string }) => field.type).sort();
				expect(types).toEqual(['checkbox', 'date', 'dropdown', 'number', 'text']);
				for (const field of template.fields) {
					expect(field.id).toMatch(/^fld_/);
					expect(typeof field.label).toBe('string');
					if (field.type === 'dropdown') {
						expect(field.options).toEqual(expect.arrayContaining([expect.any(String)]));
					} else {
						expect(field).not.toHaveProperty('options');
					}
				}
			}
		});

		it('pages with page and perPage across every page, and answers data [] past the end', async () => {
			const added = [];
			for (let index = 0; index < 5; index++) added.push(await addTemplate(`Added ${index}`));
			const seen: string[] = [];
			for (let page = 1; page <= 3; page++) {
				const answer = await get(`/api/v2/templates?page=${page}&perPage=3`);
				expect(answer.status).toBe(200);
				expect(answer.json.pagination).toEqual({ page, perPage: 3, total: 7, totalPages: 3 });
				seen.push(...answer.json.data.map((template: { id: string }) => template.id));
			}
			// The templates added last are the newest.
			expect(seen).toEqual([
				...added.map((template) => template.id).reverse(),
				SEED.residencyTemplateId,
				SEED.ndaTemplateId,
			]);
			const past = await get('/api/v2/templates?page=4&perPage=3');
			expect(past.status).toBe(200);
			expect(past.json).toEqual({
				data: [],
				pagination: { page: 4, perPage: 3, total: 7, totalPages: 3 },
			});
		});

		it.each([
			['perPage above 100', 'perPage=101'],
			['perPage 0', 'perPage=0'],
			['page 0', 'page=0'],
			['a page that is not a number', 'page=two'],
			['an unknown parameter', 'status=DRAFT'],
		])('answers 400 {message} to %s', async (_, query) => {
			const answer = await get(`/api/v2/templates?${query}`);
			expect(answer.status).toBe(400);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});

		it('accepts perPage 100 and answers 401 without the token', async () => {
			expect((await get('/api/v2/templates?perPage=100')).status).toBe(200);
			const answer = await get('/api/v2/templates', {});
			expect(answer.status).toBe(401);
			expect(answer.json).toEqual({ message: expect.any(String) });
		});
	});

	describe('GET /api/v2/templates/{templateId}', () => {
		it('returns the template with its fields, types and dropdown options', async () => {
			const answer = await get(`/api/v2/templates/${SEED.residencyTemplateId}`);
			expect(answer.status).toBe(200);
			expect(answer.json.fields).toEqual([
				{ id: SEED_TEMPLATE_FIELDS.residency.projectTitle, label: 'Project title', type: 'text' },
				{
					id: SEED_TEMPLATE_FIELDS.residency.stipend,
					label: 'Monthly stipend (EUR)',
					type: 'number',
				},
				{ id: SEED_TEMPLATE_FIELDS.residency.startDate, label: 'Start date', type: 'date' },
				{ id: SEED_TEMPLATE_FIELDS.residency.housing, label: 'Housing included', type: 'checkbox' },
				{
					id: SEED_TEMPLATE_FIELDS.residency.studio,
					label: 'Studio',
					type: 'dropdown',
					options: ['North studio', 'South studio', 'Print workshop'],
				},
			]);
			const listed = (await get('/api/v2/templates')).json.data[0];
			expect(answer.json).toEqual(listed);
		});

		it('returns a template added through control, with its fields', async () => {
			const added = await control('/templates', {
				id: 'tpl_lease',
				title: 'Studio lease',
				recipients: [{ placeholder: 'Tenant', role: 'SIGNER' }],
				fields: [{ label: 'Rooms', type: 'dropdown', options: ['One', 'Two'] }],
			});
			expect(added.status).toBe(200);
			const answer = await get('/api/v2/templates/tpl_lease');
			expect(answer.json).toEqual({
				id: 'tpl_lease',
				title: 'Studio lease',
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				recipients: [{ placeholder: 'Tenant', role: 'SIGNER' }],
				fields: [
					{
						id: expect.stringMatching(/^fld_/),
						label: 'Rooms',
						type: 'dropdown',
						options: ['One', 'Two'],
					},
				],
			});
		});

		it('answers 404 "Template not found", 401 without the token, 400 to a query parameter', async () => {
			const missing = await get('/api/v2/templates/tpl_missing');
			expect(missing.status).toBe(404);
			expect(missing.json).toEqual({ message: 'Template not found' });
			expect((await get(`/api/v2/templates/${SEED.residencyTemplateId}`, {})).status).toBe(401);
			expect((await get(`/api/v2/templates/${SEED.residencyTemplateId}?full=1`)).status).toBe(400);
		});
	});
});
