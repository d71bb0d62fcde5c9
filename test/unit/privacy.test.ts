import type { IDataObject } from 'n8n-workflow';

import { redactRecords } from '../../nodes/shared/privacy';
import { kindOfFieldName, Redactor } from '../../nodes/shared/redaction';
import { Survey } from '../../nodes/Survey/Survey.node';
import { Sandbox, startSandbox } from '../sandbox';
import { executeContext } from './helpers/context';
import { sandboxControl } from './helpers/sandbox';
import {
	CORPUS,
	EXTRA_PERSONAL_FIELDS,
	fieldAt,
	leakedValues,
	NON_PERSONAL,
	PERSONAL_VALUES,
} from './fixtures/privacyCorpus';

jest.setTimeout(60_000);

const redact = (record: IDataObject) => new Redactor('redact').apply(record);

describe('personal fields are found by name in any naming style', () => {
	it.each([
		'Full Name',
		'candidateName',
		'applicantFullName',
		'APPLICANTFULLNAME',
		'guardianName',
		'emergencyContactName',
		'emergency-contact-name',
		'fname',
		'lname',
		'first_name',
		'last_name',
		'Surname',
		'displayName',
		'nameOfApplicant',
	])('%s is a name', (field) => {
		expect(kindOfFieldName(field)).toBe('NAME');
		expect(redact({ [field]: 'Ada Lovelace' })[field]).toBe('NAME_1');
	});

	it.each([
		['E-Mail', 'EMAIL'],
		['EMAIL_ADDRESS', 'EMAIL'],
		['contactEmail', 'EMAIL'],
		['mobileNumber', 'PHONE'],
		['Phone #', 'PHONE'],
		['tel', 'PHONE'],
		['Date of Birth', 'BIRTHDATE'],
		['DOB', 'BIRTHDATE'],
		['homeAddress', 'ADDRESS'],
		['postcode', 'ADDRESS'],
		['passportNumber', 'ID'],
	])('%s holds %s', (field, kind) => {
		expect(kindOfFieldName(field)).toBe(kind);
	});

	it.each([
		'fileName',
		'surveyName',
		'companyName',
		'company_name',
		'businessName',
		'decision',
		'portfolio',
		'statement',
	])('%s is not personal', (field) => {
		expect(kindOfFieldName(field)).toBeUndefined();
		expect(redact({ [field]: 'Residency 2026' })[field]).toBe('Residency 2026');
	});

	it('takes a text answer in a field named after a person for a name, and judges an object there by its fields', () => {
		expect(
			redact({
				guardian: 'Walter Hopper',
				parentOrGuardian: 'Joylette Coleman',
				referee1: 'Michael Faraday',
			}),
		).toEqual({
			guardian: 'NAME_1',
			parentOrGuardian: 'NAME_2',
			referee1: 'NAME_3',
		});
		expect(
			redact({
				nextOfKin: { name: 'Joshua Coleman', relationship: 'father' },
				applicantType: 'individual',
			}),
		).toEqual({
			nextOfKin: { name: 'NAME_1', relationship: 'father' },
			applicantType: 'individual',
		});
	});

	it('judges a bare "name" by the field it sits in', () => {
		expect(redact({ company: { name: 'Analytical Engines Ltd' } })).toEqual({
			company: { name: 'Analytical Engines Ltd' },
		});
		expect(redact({ referee: { name: 'Charles Babbage' } })).toEqual({
			referee: { name: 'NAME_1' },
		});
	});
});

describe('Redactor regressions (issue 11 §1, issue 18 item 10)', () => {
	it('redacts objects in arrays, each by its own field names', () => {
		const redacted = redact({
			referees: [
				{ name: 'Charles Babbage', email: 'charles@babbage.example', relationship: 'mentor' },
				{ refereeName: 'Mary Somerville', phone: '+44 131 496 0457' },
			],
		});
		expect(redacted).toEqual({
			referees: [
				{ name: 'NAME_1', email: 'EMAIL_1', relationship: 'mentor' },
				{ refereeName: 'NAME_2', phone: 'PHONE_1' },
			],
		});
	});

	it('scrubs object keys', () => {
		const redacted = redact({
			referees: { 'alan@turing.org': 'supervisor', 'grace@navy.example': 'mentor' },
		});
		expect(redacted).toEqual({ referees: { EMAIL_1: 'supervisor', EMAIL_2: 'mentor' } });
	});

	it('finds phone numbers stored as numbers, but not times or amounts', () => {
		const redacted = redact({
			contactNumber: 447700900123,
			submittedAt: 1764547200000,
			budget: 1500000,
			rating: 5,
		});
		expect(redacted).toEqual({
			contactNumber: 'PHONE_1',
			submittedAt: 1764547200000,
			budget: 1500000,
			rating: 5,
		});
	});

	it('finds a phone number right after a date, and leaves the date', () => {
		expect(redact({ availability: 'from 2026-12-01 07700 900123' }).availability).toBe(
			'from 2026-12-01 PHONE_1',
		);
		expect(redact({ note: 'call 07700 900123 2026-12-01' }).note).toBe('call PHONE_1 2026-12-01');
	});

	it('looks into JSON held in a string answer, and leaves JSON without personal data as it is', () => {
		const redacted = redact({
			answersJson:
				'{"applicantFullName":"Grace Hopper","contactEmail":"gbh@navy.example","rating":5}',
			layout: '{ "columns": 2 }',
		});
		expect(JSON.parse(String(redacted.answersJson))).toEqual({
			applicantFullName: 'NAME_1',
			contactEmail: 'EMAIL_1',
			rating: 5,
		});
		expect(redacted.layout).toBe('{ "columns": 2 }');
	});

	it('matches Extra Personal Fields by plain, dotted and flattened names in any style', () => {
		const nested = { background: { employer: 'Remington Rand', yearsActive: 40 } };
		expect(new Redactor('redact', { extraFields: ['background.employer'] }).apply(nested)).toEqual({
			background: { employer: 'PERSONAL_1', yearsActive: 40 },
		});
		const flattened = { 'background.employer': 'Remington Rand', 'background.yearsActive': 40 };
		expect(new Redactor('redact', { extraFields: ['background.employer'] }).apply(flattened)).toEqual({
			'background.employer': 'PERSONAL_1',
			'background.yearsActive': 40,
		});
		expect(new Redactor('redact', { extraFields: ['Employer'] }).apply(flattened)['background.employer']).toBe(
			'PERSONAL_1',
		);
		expect(new Redactor('redact', { extraFields: ['passport number'] }).apply({ passport_Number: 'X' })).toEqual({
			passport_Number: 'PERSONAL_1',
		});
	});

	it('replaces a known name where it recurs in another answer, with the same pseudonym', () => {
		const redacted = redact({ fullName: 'Ada Lovelace', statement: 'Hello, I am Ada Lovelace.' });
		expect(redacted).toEqual({ fullName: 'NAME_1', statement: 'Hello, I am NAME_1.' });
	});

	it('replaces a known name as a URL slug, in any case and with any separator (issue 18 item 10)', () => {
		const redacted = redact({
			fullName: 'Ada Lovelace',
			portfolio: 'https://portfolio.example.org/ada-lovelace',
			github: 'https://github.com/AdaLovelace',
			handle: 'ada_lovelace',
			shout: 'ADA LOVELACE',
			dotted: 'see ada.lovelace on the wiki',
		});
		expect(redacted).toEqual({
			fullName: 'NAME_1',
			portfolio: 'https://portfolio.example.org/NAME_1',
			github: 'https://github.com/NAME_1',
			handle: 'NAME_1',
			shout: 'NAME_1',
			dotted: 'see NAME_1 on the wiki',
		});
	});

	it('replaces the local part of a known e-mail address where it recurs as a slug (issue 18 item 10)', () => {
		const redacted = redact({
			email: 'grace.hopper@navy.example',
			website: 'https://example.com/grace-hopper/cv',
		});
		expect(redacted).toEqual({ email: 'EMAIL_1', website: 'https://example.com/NAME_1/cv' });
	});

	it('does not look for placeholders typed into a name field', () => {
		const redacted = redactRecords(
			[{ fullName: 'None' }, { fullName: 'Ada Lovelace', answer: 'None of the above' }],
			'redact',
		);
		expect(redacted[1].answer).toBe('None of the above');
	});

	it('replaces a part of a known name written as in the name or in capitals, not the same word in lower case', () => {
		const redacted = redact({
			fullName: 'Grace Hopper',
			statement: 'Grace wrote it; HOPPER said so; with grace.',
		});
		expect(redacted.statement).toBe('NAME_1 wrote it; NAME_1 said so; with grace.');
	});

	it('finds a known name with accents as its slug without them', () => {
		const redacted = redact({
			name: 'Émilie du Châtelet',
			blog: 'https://blog.example/emilie-du-chatelet',
		});
		expect(redacted).toEqual({ name: 'NAME_1', blog: 'https://blog.example/NAME_1' });
	});

	it('does not take an ISBN or an id in a URL for a phone number', () => {
		const answers = {
			isbn: '978-3-16-148410-0',
			link: 'https://library.example/item?id=1234567890',
		};
		expect(redact(answers)).toEqual(answers);
		expect(redact({ us: 'call 202-555-0143' }).us).toBe('call PHONE_1');
	});

	it('does not take the digits a UUID begins with for a phone number (Karakeep asset IDs)', () => {
		const asset = {
			assetId: '96246566-7389-4d3a-97ab-e68c5da8f26e',
			fileName: '96246566-7389-4d3a-97ab-e68c5da8f26e.pdf',
			note: 'scan 96246566-7389-4d3a-97ab-e68c5da8f26e, call 202-555-0143',
		};
		expect(redact(asset)).toEqual({ ...asset, note: 'scan 96246566-7389-4d3a-97ab-e68c5da8f26e, call PHONE_1' });
	});

	it('leaves words that merely contain a known name alone', () => {
		const redacted = redact({ fullName: 'Ada Lovelace', note: 'Adamant about Lovelaces' });
		expect(redacted.note).toBe('Adamant about Lovelaces');
	});
});

describe('the privacy corpus', () => {
	it('has at least 40 personal values', () => {
		expect(PERSONAL_VALUES.length).toBeGreaterThanOrEqual(40);
		// The corpus really holds them: Keep mode leaks every one.
		expect(leakedValues(redactRecords(CORPUS as IDataObject[], 'keep'))).toEqual(PERSONAL_VALUES);
	});

	it.each(['redact', 'omit'] as const)(
		'redactRecords (%s) leaks none of them and keeps the rest',
		(mode) => {
			const records = redactRecords(CORPUS as IDataObject[], mode, { extraFields: EXTRA_PERSONAL_FIELDS });
			expect(leakedValues(records)).toEqual([]);
			for (const [index, field, value] of NON_PERSONAL) {
				expect({ index, field, value: fieldAt(records[index], field) }).toEqual({
					index,
					field,
					value,
				});
			}
		},
	);

	it('gives a name recurring in another record the pseudonym of its own record', () => {
		const records = redactRecords(CORPUS as IDataObject[], 'redact', { extraFields: EXTRA_PERSONAL_FIELDS });
		const ada = records[0]['Full Name'];
		const grace = records[1].candidateName;
		const hedwig = records[3].applicantFullName;
		expect(records[4].statement).toBe(
			`I was mentored by ${ada} and ${grace}, and I admire ${hedwig}.`,
		);
	});
});

describe('Applicant Records → Export of the privacy corpus, against the sandbox', () => {
	const SURVEY_ID = 'srv_privacy_corpus';
	let sandbox: Sandbox;
	let responseIds: string[];
	const node = new Survey();

	beforeAll(async () => {
		sandbox = await startSandbox({ rateLimits: { survey: null } });
		const control = sandboxControl(sandbox, 'survey');
		await control.call('POST', '/surveys', {
			id: SURVEY_ID,
			name: 'Privacy corpus',
			status: 'inProgress',
			type: 'link',
		});
		responseIds = [];
		for (const data of CORPUS) {
			const created = await control.call<{ data: { id: string } }>(
				'POST',
				`/surveys/${SURVEY_ID}/responses`,
				{
					data,
					finished: true,
				},
			);
			responseIds.push(created.data.id);
		}
	});
	afterAll(async () => await sandbox?.stop());

	const exportRecords = async (parameters: IDataObject, nodeType?: string) => {
		const { context } = executeContext({
			parameters: {
				resource: 'applicantRecords',
				operation: 'export',
				surveyId: { mode: 'id', value: SURVEY_ID },
				...parameters,
			},
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			node: nodeType ? { type: nodeType } : undefined,
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};

	it.each(['redact', 'omit'])(
		'%s leaks none of the personal values and keeps non-personal answers',
		async (personalData) => {
			const records = await exportRecords({
				personalData,
				options: { extraPersonalFields: EXTRA_PERSONAL_FIELDS.join(', ') },
			});
			expect(records.map((record) => record.responseId)).toEqual(responseIds);
			expect(leakedValues(records)).toEqual([]);
			for (const [index, field, value] of NON_PERSONAL) {
				expect({ index, field, value: records[index][field] }).toEqual({ index, field, value });
			}
		},
	);

	it('as a tool, with the defaults, leaks none of them except what only the user can name', async () => {
		const records = await exportRecords({}, 'n8n-nodes-sign-survey-bookmark.surveyTool');
		expect(leakedValues(records)).toEqual(['Remington Rand']);
	});

	const readResponses = async (parameters: IDataObject) => {
		const { context } = executeContext({
			parameters,
			credentials: { surveyApi: { baseUrl: sandbox.survey.url, apiKey: sandbox.survey.apiKey } },
			node: { type: 'n8n-nodes-sign-survey-bookmark.surveyTool' },
		});
		return (await node.execute.call(context))[0].map((item) => item.json);
	};

	it('as a tool, Response → Get Many and Get leak none of them either', async () => {
		const many = await readResponses({
			resource: 'response',
			operation: 'getMany',
			surveyId: { mode: 'id', value: SURVEY_ID },
			returnAll: true,
		});
		expect(many.map((response) => response.id)).toEqual(responseIds);
		expect(leakedValues(many)).toEqual(['Remington Rand']);
		// Get sees one response: a value that is personal only because another response holds it
		// in a personal field cannot be known there (README, Personal data). What it may leak is
		// therefore only text inside a longer answer, never a value of one of its own fields.
		const wholeValues = (value: unknown): string[] =>
			typeof value === 'string'
				? [value]
				: value !== null && typeof value === 'object'
					? Object.entries(value).flatMap(([key, entry]) => [key, ...wholeValues(entry)])
					: [String(value)];
		for (const [index, responseId] of responseIds.entries()) {
			const one = await readResponses({ resource: 'response', operation: 'get', responseId });
			const ownValues = new Set(wholeValues(CORPUS[index]));
			const leaked = leakedValues(one).filter((value) => value !== 'Remington Rand');
			expect(leaked.filter((value) => ownValues.has(value))).toEqual([]);
		}
	});

	it('matches Extra Personal Fields against the flattened names shown in the output', async () => {
		const records = await exportRecords({
			personalData: 'redact',
			options: { extraPersonalFields: 'background.employer' },
		});
		expect(records[1]['background.employer']).toBe('PERSONAL_1');
		expect(records[1]['background.yearsActive']).toBe(40);
	});

	it('scrubs a personal key inside a nested answer, keeping the path around it', async () => {
		const records = await exportRecords({ personalData: 'redact' });
		const contactFields = Object.keys(records[0]).filter((field) => field.startsWith('contacts.'));
		expect(contactFields).toEqual([expect.stringMatching(/^contacts\.EMAIL_\d+$/)]);
		expect(records[0][contactFields[0]]).toBe('supervisor');
	});

	it('replaces a name recurring in another record of the export with the same pseudonym', async () => {
		const records = await exportRecords({ personalData: 'redact' });
		expect(records[4].statement).toBe(
			`I was mentored by ${records[0]['Full Name']} and ${records[1].candidateName}, and I admire ${records[3].applicantFullName}.`,
		);
		expect(records[0].portfolio).toBe(`https://portfolio.example.org/${records[0]['Full Name']}`);
	});
});
