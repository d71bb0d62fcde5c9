/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Fires the demo while `npm start` runs:
 *   npm run demo -- apply [approved|rejected] [Full Name]   a finished application in the survey sandbox
 *   npm run demo -- sign                                    every pending document gets signed by everyone
 */
import { FORMBRICKS_SEED } from '../test/sandbox/formbricks/seed';
import { SEED } from '../test/sandbox/seed';

const surveyUrl = `http://127.0.0.1:${process.env.SANDBOX_SURVEY_PORT ?? 4103}`;
const signingUrl = `http://127.0.0.1:${process.env.SANDBOX_SIGNING_PORT ?? 4101}`;
const say = (line: string) => process.stdout.write(`${line}\n`);

async function post(url: string, body: unknown) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
	return (await response.json()) as Record<string, unknown>;
}

/** The residency survey: the documented seed's, or Formbricks' when `npm start` runs with SURVEYS=formbricks. */
async function residencySurveyId(): Promise<string> {
	const formbricks = await fetch(`${surveyUrl}/_sandbox/formbricks`).then((response) => response.ok);
	return formbricks ? FORMBRICKS_SEED.surveys.residency : SEED.residencySurveyId;
}

async function apply(decision = 'approved', name = 'Nina Simone') {
	const local = name.toLowerCase().replace(/[^a-z]+/g, '.');
	const { data } = (await post(`${surveyUrl}/_sandbox/surveys/${await residencySurveyId()}/responses`, {
		data: {
			fullName: name,
			email: `${local}@example.org`,
			phone: '+1 555 0100 2026',
			portfolio: `https://portfolio.example.org/${local.replace(/\./g, '-')}`,
			statement: 'I would like to spend the residency on a new body of work.',
			decision,
		},
	})) as { data: { id: string } };
	say(`Submitted ${decision} application ${data.id} for ${name}.`);
	say(decision === 'approved'
		? 'The "Application approved → signing envelope" workflow now generates the agreement and files the portfolio.'
		: 'The workflow runs and stops at "Approved?": no envelope.');
}

async function signAll() {
	const { documents } = (await fetch(`${signingUrl}/_sandbox/documents`).then(async (r) => await r.json())) as {
		documents: Array<{ id: string; title: string; status: string }>;
	};
	const pending = documents.filter((document) => document.status === 'PENDING');
	for (const document of pending) {
		await post(`${signingUrl}/_sandbox/documents/${document.id}/complete`, {});
		say(`Everyone signed "${document.title}" (${document.id}).`);
	}
	say(pending.length
		? 'The "Signed → archived as a bookmark" workflow now files each signed document as a bookmark (with BOOKMARKS=karakeep npm start: the signed PDF in Karakeep).'
		: 'No pending document: run "npm run demo -- apply" first.');
}

const [command, ...rest] = process.argv.slice(2);
const run = command === 'apply' ? apply(rest[0], rest.slice(1).join(' ') || undefined) : command === 'sign' ? signAll() : undefined;
if (!run) {
	say('Usage: npm run demo -- apply [approved|rejected] [Full Name] | npm run demo -- sign');
	process.exit(1);
}
run.catch((error) => {
	process.stderr.write(`${(error as Error).message}\n(Is "npm start" running?)\n`);
	process.exit(1);
});
