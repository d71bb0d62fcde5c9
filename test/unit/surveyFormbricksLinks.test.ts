/**
 * Survey → Get Personal Link and Get Single-Use Links on Formbricks, against the Formbricks flavour
 * (test/sandbox/formbricks/routesContacts.ts and routesV1.ts: apps/web/modules/api/v2/management/surveys/[surveyId]/contact-links/…
 * and apps/web/app/api/v1/management/surveys/[surveyId]/singleUseIds/route.ts at b66c1dd), every
 * request held to Formbricks' OpenAPI files.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { Survey } from '../../nodes/Survey/Survey.node';
import { FORMBRICKS_SEED } from '../sandbox';
import { executeContext, type ExecuteOptions, type Parameters } from './helpers/context';
import { formbricksForEachTest } from './helpers/formbricks';

jest.setTimeout(120_000);

const { contacts, segments, surveys } = FORMBRICKS_SEED;
const survey = (id: string) => ({ mode: 'id', value: id });

describe('Survey → Get Personal Link and Get Single-Use Links on Formbricks', () => {
	const harness = formbricksForEachTest();
	const node = new Survey();
	const run = async (parameters: Parameters, options: Partial<ExecuteOptions> = {}) => {
		const { context } = executeContext({ parameters, credentials: harness().credentials(), ...options });
		return (await node.execute.call(context))[0].map((item) => item.json);
	};
	const linkFor = (contactId: string, extra: Parameters = {}): Parameters => ({
		resource: 'survey',
		operation: 'getPersonalLink',
		surveyId: survey(surveys.residency),
		linkFor: 'contact',
		contactId,
		...extra,
	});
	const segmentLinks = (extra: Parameters = {}): Parameters => ({
		resource: 'survey',
		operation: 'getPersonalLink',
		surveyId: survey(surveys.residency),
		linkFor: 'segment',
		segmentId: segments.cohort2025,
		returnAll: true,
		...extra,
	});
	const linkRequests = async () =>
		(await harness().requests()).filter((request) => request.path.includes('/contact-links/')).map((request) => request.query);


	describe('for a contact', () => {
		it('gives the link, expiring after the days asked, or never', async () => {
			const [link] = await run(linkFor(contacts.lise, { options: { expirationDays: 7 } }));
			expect(link).toEqual({
				surveyId: surveys.residency,
				contactId: contacts.lise,
				surveyUrl: expect.stringMatching(/^https:\/\/forms\.residency\.example\.org\/c\//),
				expiresAt: expect.any(String),
			});
			const [lasting] = await run(linkFor(contacts.lise));
			expect(lasting.expiresAt).toBeNull();
			expect(await linkRequests()).toEqual([{ expirationDays: '7' }, {}]);
		});

		it('Formbricks’ refusals, with what to do: not a link survey, already responded', async () => {
			const notLink = await run(linkFor(contacts.lise, { surveyId: survey(surveys.alumni) })).catch((e) => e);
			expect(notLink).toBeInstanceOf(NodeApiError);
			expect(notLink.message).toBe('The Formbricks server answered 400: Bad Request: surveyId: Not a link survey');
			expect(notLink.description).toContain('Personal links exist for link surveys only');
			await harness().control(`surveys/${surveys.alumni}`, 'PATCH', { type: 'link' });
			const answered = await run(linkFor(contacts.lise, { surveyId: survey(surveys.alumni) })).catch((e) => e);
			expect(answered.message).toBe('The Formbricks server answered 400: Bad Request: contactId: Already responded');
			expect(answered.description).toContain('has answered the survey already');
		});

		it('without an Enterprise licence: 403, and that personal links need it', async () => {
			await harness().control('formbricks', 'PUT', { enterpriseLicence: false });
			const error = await run(linkFor(contacts.lise)).catch((e) => e);
			expect(error.httpCode).toBe('403');
			expect(error.message).toBe('The Formbricks server answered 403: Forbidden');
			expect(error.description).toContain('personal links need Formbricks\' Enterprise licence');
		});

		it('as a tool the link is redacted (it lets anyone answer as the contact), unless Personal Data is Keep', async () => {
			const tool = { tool: true, node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' } };
			const [hidden] = await run(linkFor(contacts.lise), tool);
			expect(hidden.surveyUrl).toMatch(/^PERSONAL_\d+$/);
			const [kept] = await run(linkFor(contacts.lise, { options: { personalData: 'keep' } }), tool);
			expect(kept.surveyUrl).toMatch(/\/c\//);
		});
	});

	describe('for a segment', () => {
		it('one link per contact, newest contact first, with the attributes asked for', async () => {
			const links = await run(segmentLinks({ options: { attributeKeys: 'email, firstName' } }));
			expect(links).toEqual([
				{ surveyId: surveys.residency, contactId: contacts.emmy, surveyUrl: expect.stringContaining('/c/'), expiresAt: null, attributes: { email: 'emmy.noether@example.org', firstName: 'Emmy' } },
				{ surveyId: surveys.residency, contactId: contacts.rosalind, surveyUrl: expect.stringContaining('/c/'), expiresAt: null, attributes: { email: 'rosalind.franklin@example.org', firstName: 'Rosalind' } },
			]);
			expect(await linkRequests()).toEqual([{ limit: '250', skip: '0', attributeKeys: 'email,firstName' }]);
		});

		it('Return All reads pages of 250; Limit asks for no more than it needs', async () => {
			const contactsBody = Array.from({ length: 300 }, (_, index) => ({
				attributes: [
					{ attributeKey: { key: 'email', name: 'Email' }, value: `member${index}@example.org` },
					{ attributeKey: { key: 'cohort', name: 'Cohort' }, value: '2030' },
				],
			}));
			for (const part of [contactsBody.slice(0, 150), contactsBody.slice(150)]) {
				const answer = await fetch(`${harness().fb.url}/api/v2/management/contacts/bulk`, {
					method: 'PUT',
					headers: { 'x-api-key': harness().fb.apiKey, 'content-type': 'application/json' },
					body: JSON.stringify({ workspaceId: FORMBRICKS_SEED.workspaceId, contacts: part }),
				});
				expect(answer.status).toBe(200);
			}
			const made = await harness().control<{ data: IDataObject }>('segments', 'POST', { title: 'Cohort 2030', filters: [{ key: 'cohort', value: '2030' }] });
			await harness().control('requests', 'DELETE');
			const all = await run(segmentLinks({ segmentId: made.data.id }));
			expect(all).toHaveLength(300);
			expect(new Set(all.map((link) => link.contactId)).size).toBe(300);
			expect((await linkRequests()).map((query) => [query.skip, query.limit])).toEqual([['0', '250'], ['250', '250']]);
			await harness().control('requests', 'DELETE');
			expect(await run(segmentLinks({ segmentId: made.data.id, returnAll: false, limit: 3 }))).toHaveLength(3);
			expect((await linkRequests()).map((query) => query.limit)).toEqual(['3']);
		});

		it('a survey that is not a link survey in progress is named before Formbricks’ bare 403', async () => {
			await harness().control(`surveys/${surveys.residency}`, 'PATCH', { status: 'paused' });
			const error = await run(segmentLinks()).catch((e) => e);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('The survey "Residency application" is not in progress: Formbricks gives a segment personal links to link surveys in progress only');
			expect(await linkRequests()).toEqual([]);
		});

		it('more than 20 attribute keys: refused before anything is sent', async () => {
			const keys = Array.from({ length: 21 }, (_, index) => `key${index}`).join(',');
			const error = await run(segmentLinks({ options: { attributeKeys: keys } })).catch((e) => e);
			expect(error.message).toBe('Contact Attributes: 21 keys given, Formbricks returns at most 20');
			expect(await harness().requests()).toEqual([]);
		});
	});

	describe('single-use links', () => {
		const singleUse = (extra: Parameters = {}): Parameters => ({
			resource: 'survey',
			operation: 'getSingleUseLinks',
			surveyId: survey(surveys.residency),
			count: 3,
			...extra,
		});

		it('one item per link, with its id', async () => {
			await harness().control(`surveys/${surveys.residency}`, 'PATCH', { singleUse: { enabled: true, isEncrypted: false } });
			const links = await run(singleUse());
			expect(links).toHaveLength(3);
			expect(links[0]).toEqual({ surveyId: surveys.residency, url: expect.stringContaining(`/s/${surveys.residency}?suId=`), singleUseId: expect.any(String) });
			expect(new URL(String(links[0].url)).searchParams.get('suId')).toBe(links[0].singleUseId);
			expect((await harness().requests()).map((request) => request.query)).toEqual([{ limit: '3' }]);
		});

		it('a key without write access: 401, and that single-use links need it', async () => {
			await harness().control(`surveys/${surveys.residency}`, 'PATCH', { singleUse: { enabled: true } });
			await harness().control('formbricks', 'PUT', { permission: 'read' });
			const error = await run(singleUse()).catch((e) => e);
			expect(error.httpCode).toBe('401');
			expect(error.description).toContain('making single-use links need an API key with "Write" access');
		});

		it('single-use links off in the survey: Formbricks’ 400, and where to turn them on', async () => {
			const error = await run(singleUse()).catch((e) => e);
			expect(error.message).toBe('The Formbricks server answered 400: Single use links are not enabled for this survey');
			expect(error.description).toContain('Single-use links');
		});

		it('more than 5,000: refused before anything is sent', async () => {
			const error = await run(singleUse({ count: 5001 })).catch((e) => e);
			expect(error.message).toBe('Number of Links: 5001 is not a whole number from 1 to 5000');
			expect(await harness().requests()).toEqual([]);
		});
	});

	it('on the documented API both fail at once naming the Formbricks API', async () => {
		for (const [parameters, operation] of [
			[linkFor(contacts.lise), 'Survey → Get Personal Link'],
			[{ resource: 'survey', operation: 'getSingleUseLinks', surveyId: survey(surveys.residency), count: 1 }, 'Survey → Get Single-Use Links'],
		] as const) {
			const { context, requests } = executeContext({
				parameters,
				credentials: { surveyApi: { api: 'documented', baseUrl: harness().fb.url, apiKey: 'irrelevant' } },
			});
			const error = await node.execute.call(context).catch((e) => e);
			expect(error.message).toBe(`${operation} is available with the Formbricks API; this credential uses the documented API`);
			expect(requests).toEqual([]);
		}
	});
});
