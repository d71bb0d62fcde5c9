import type { IDataObject } from 'n8n-workflow';

import { SurveyTrigger } from '../../nodes/Survey/SurveyTrigger.node';
import { type Sandbox, SEED, startSandbox } from '../sandbox';
import { callWebhook } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';
import { signedSurveyDelivery } from './helpers/surveyDelivery';

jest.setTimeout(30_000);

const trigger = new SurveyTrigger();
const webhook = trigger.webhook as Parameters<typeof callWebhook>[0];
const secret = `whsec_${Buffer.from('survey-trigger-output-secret').toString('base64')}`;
const ANSWERS = {
	fullName: 'Rosalind Franklin',
	email: 'rosalind.franklin@example.org',
	rating: 5,
	highlights: ['Studio time', 'Community'],
	comment: 'The studio time was invaluable.',
	suggestion: 'Write to rosalind.franklin@example.org about it.',
};

describe('Survey Trigger output: Answers and Personal Data options', () => {
	let sandbox: Sandbox;
	let counter = 0;
	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
	});
	afterAll(async () => await sandbox?.stop());

	const deliver = async (options: IDataObject = {}, id = `msg_output_${++counter}`, workflowId = 'wf-survey-output') => {
		const body = {
			event: 'responseFinished',
			surveyId: SEED.alumniSurveyId,
			responseId: `resp_${id}`,
			createdAt: '2026-11-21T10:00:00.000Z',
			data: ANSWERS,
		};
		const call = signedSurveyDelivery(sandbox, {
			id,
			secret,
			hookId: 'wh_output',
			workflowId,
			body,
			options,
		});
		const outcome = await callWebhook(webhook, call);
		const [item] = outcome.result.workflowData?.[0] ?? [];
		return item.json;
	};

	it('keeps the answers as sent without options', async () => {
		expect((await deliver()).data).toEqual(ANSWERS);
	});

	it('keys by question text, numbering the repeated headline, keeping the multi-choice array', async () => {
		expect((await deliver({ answers: 'text' })).data).toEqual({
			'Your name': ANSWERS.fullName,
			'Your e-mail address': ANSWERS.email,
			'How would you rate the residency?': 5,
			'What did you value most?': ['Studio time', 'Community'],
			'Anything else?': ANSWERS.comment,
			'Anything else? (2)': ANSWERS.suggestion,
		});
	});

	it('gives { id, question, answer } per answer with Both', async () => {
		const data = (await deliver({ answers: 'both' })).data as IDataObject[];
		expect(data.map((entry) => entry.id)).toEqual(Object.keys(ANSWERS));
		expect(data[3]).toEqual({
			id: 'highlights',
			question: 'What did you value most?',
			answer: ['Studio time', 'Community'],
		});
	});

	it('redacts or omits personal data when chosen, before keying by text', async () => {
		for (const personalData of ['redact', 'omit']) {
			const json = JSON.stringify((await deliver({ personalData, answers: 'text' })).data);
			expect(json).not.toContain('Rosalind');
			expect(json).not.toContain('rosalind.franklin@example.org');
			expect(json).toContain('The studio time was invaluable.');
		}
	});

	it('emits a delivery whose questions could not be read (the service failed), every answer treated as personal; the next delivery reads them again', async () => {
		const control = sandboxControl(sandbox, 'survey');
		await control.failNext(1, 500);
		// A workflow of its own: the questions are kept per workflow once read.
		const unread = await deliver({ answers: 'text', personalData: 'redact' }, 'msg_output_unread', 'wf-survey-output-retried');
		expect(unread.questionsUnavailable).toBe(true);
		expect(Object.keys(unread.data as IDataObject).sort()).toEqual(Object.keys(ANSWERS).sort());
		expect(JSON.stringify(unread.data)).not.toContain('The studio time was invaluable.');
		const read = await deliver({ answers: 'text' }, 'msg_output_read', 'wf-survey-output-retried');
		expect(read.questionsUnavailable).toBeUndefined();
		expect(read.data).toHaveProperty(['Your name'], ANSWERS.fullName);
	});
});
