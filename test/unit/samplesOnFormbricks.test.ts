/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * `SURVEYS=formbricks npm start`: the sample workflows deployed against the Formbricks flavour,
 * whose residency and erasure surveys carry the question ids the samples read (as a Formbricks
 * user sets them in the editor). Every survey a sample names must exist there, and every answer a
 * sample's expressions read must be a question of those surveys.
 */
import { readFileSync } from 'node:fs';

import { listWorkflowFiles } from '../harness/n8n';
import { sampleSurveyIds, withSurveyIds } from '../harness/provision';
import { FORMBRICKS_SEED, type Sandbox, startSandbox } from '../sandbox';

jest.setTimeout(60_000);

describe('the sample workflows on the Formbricks flavour (SURVEYS=formbricks npm start)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ survey: 'formbricks', formbricks: { sampleQuestionIds: true } });
	});
	afterAll(async () => await sandbox?.stop());

	const get = async (path: string) =>
		await fetch(`${sandbox.survey.url}${path}`, { headers: { 'x-api-key': sandbox.survey.apiKey } });
	const questionIds = async (surveyId: string) =>
		((await (await get(`/api/v1/management/surveys/${surveyId}`)).json()) as { data: { questions: Array<{ id: string }> } }).data.questions.map(
			(question) => question.id,
		);

	it('names only surveys the Formbricks flavour has', async () => {
		expect(sandbox.survey.api).toBe('formbricks');
		const checked = new Set<string>();
		for (const file of listWorkflowFiles()) {
			const text = withSurveyIds(readFileSync(file, 'utf8'), sampleSurveyIds(sandbox));
			expect({ file, documentedIds: text.match(/\bsrv_[a-z0-9_]+\b/g) ?? [] }).toEqual({ file, documentedIds: [] });
			for (const id of new Set(text.match(/\bc[a-z0-9]{24}\b/g) ?? [])) {
				expect({ file, id, status: (await get(`/api/v1/management/surveys/${id}`)).status }).toEqual({ file, id, status: 200 });
				checked.add(id);
			}
		}
		expect([...checked].sort()).toEqual([FORMBRICKS_SEED.surveys.residency, FORMBRICKS_SEED.surveys.erasure].sort());
	});

	it('reads only answers that are questions of the residency and erasure surveys', async () => {
		const known = new Set([
			...(await questionIds(FORMBRICKS_SEED.surveys.residency)),
			...(await questionIds(FORMBRICKS_SEED.surveys.erasure)),
		]);
		const read = new Set<string>();
		for (const file of listWorkflowFiles()) {
			for (const [, id] of readFileSync(file, 'utf8').matchAll(/json\.data\.([A-Za-z_][A-Za-z0-9_]*)/g)) read.add(id);
		}
		expect([...read].length).toBeGreaterThanOrEqual(4);
		expect([...read].filter((id) => !known.has(id))).toEqual([]);
	});

	it('without the option the flavour keeps Formbricks’ random question ids', async () => {
		const plain = await startSandbox({ survey: 'formbricks' });
		try {
			const response = await fetch(`${plain.survey.url}/api/v1/management/surveys/${FORMBRICKS_SEED.surveys.residency}`, {
				headers: { 'x-api-key': plain.survey.apiKey },
			});
			const { data } = (await response.json()) as { data: { questions: Array<{ id: string }> } };
			expect(data.questions.map((question) => question.id)).toContain(FORMBRICKS_SEED.questions.residency.fullName);
		} finally {
			await plain.stop();
		}
	});
});
