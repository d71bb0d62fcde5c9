import { Redactor } from '../../nodes/shared/redaction';

const answers = {
	fullName: 'Ada Lovelace',
	email: 'ada@example.org',
	phone: '+44 20 7946 0958',
	dateOfBirth: '1815-12-10',
	address: { street: '12 St James’s Square', city: 'London' },
	portfolio: 'https://portfolio.example.org/ada',
	statement: 'Reach me at ada@example.org or +44 20 7946 0958 before 2026-12-01.',
	decision: 'approved',
	employer: 'Analytical Engines Ltd',
};

describe('Redactor', () => {
	it('keeps everything as it is in Keep mode', () => {
		expect(new Redactor('keep').apply(answers)).toEqual(answers);
	});

	it('replaces personal data found by field name and by value, leaving the rest', () => {
		const redacted = new Redactor('redact').apply(answers);
		const text = JSON.stringify(redacted);
		for (const secret of ['Ada Lovelace', 'ada@example.org', '7946', '1815-12-10', 'St James', 'London']) {
			expect(text).not.toContain(secret);
		}
		expect(redacted.fullName).toBe('NAME_1');
		expect(redacted.email).toBe('EMAIL_1');
		expect(redacted.phone).toBe('PHONE_1');
		expect(redacted.statement).toBe('Reach me at EMAIL_1 or PHONE_1 before 2026-12-01.');
		expect(redacted.portfolio).toBe(answers.portfolio);
		expect(redacted.decision).toBe('approved');
		expect(redacted.employer).toBe('Analytical Engines Ltd');
	});

	it('gives the same value the same token within an export, across records', () => {
		const redactor = new Redactor('redact');
		const first = redactor.apply({ email: 'ada@example.org', fullName: 'Ada' });
		const second = redactor.apply({ email: 'grace@example.org', contact: 'write to ADA@example.org' });
		const third = redactor.apply({ email: 'ada@example.org' });
		expect(first.email).toBe('EMAIL_1');
		expect(second.email).toBe('EMAIL_2');
		expect(second.contact).toBe('write to EMAIL_1');
		expect(third.email).toBe('EMAIL_1');
	});

	it('treats listed extra field names as personal data', () => {
		const redacted = new Redactor('redact', { extraFields: ['employer'] }).apply(answers);
		expect(redacted.employer).toBe('PERSONAL_1');
	});

	it('leaves personal fields out in Omit mode and removes contact details from other answers', () => {
		const omitted = new Redactor('omit').apply(answers);
		expect(Object.keys(omitted).sort()).toEqual(['decision', 'employer', 'portfolio', 'statement']);
		expect(omitted.statement).toBe('Reach me at [removed] or [removed] before 2026-12-01.');
	});
});

describe('free text (issue 23 §1)', () => {
	const redact = (record: Record<string, unknown>) =>
		new Redactor('redact').apply(record as never) as Record<string, unknown>;

	it('redacts values after a personal label, and the names they give wherever they recur', () => {
		const redacted = redact({
			title: 'Portfolio – Ada Lovelace',
			note: 'Applicant: Ada Lovelace\nE-mail: ada@example.org\nTel: 555 0110\nDate of birth: 10/12/1815\nAddress: 12 St James Square, London\nStatus: shortlisted',
		});
		expect(redacted).toEqual({
			title: 'Portfolio – NAME_1',
			note: 'Applicant: NAME_1\nE-mail: EMAIL_1\nTel: PHONE_1\nDate of birth: BIRTHDATE_1\nAddress: ADDRESS_1\nStatus: shortlisted',
		});
	});

	it('ends a labelled name at a comma, a bracket, a semicolon or the next label, but not at an initial', () => {
		expect(redact({ note: 'Referee: Howard Aiken, Harvard' }).note).toBe('Referee: NAME_1, Harvard');
		expect(redact({ note: 'Mentor: Ada K. Lovelace (2026); budget: 500' }).note).toBe(
			'Mentor: NAME_1 (2026); budget: 500',
		);
		expect(redact({ note: 'Name: Ada Lovelace, Email: ada@example.org' }).note).toBe(
			'Name: NAME_1, Email: EMAIL_1',
		);
		expect(redact({ note: 'Contact person: Mary Somerville. She replied.' }).note).toBe(
			'Contact person: NAME_1. She replied.',
		);
	});

	it('leaves labels that ask for nothing personal, URLs and times alone', () => {
		const text = 'Status: shortlisted; Note: see https://example.org/a at 10:30. Project name: Sky';
		expect(redact({ note: text }).note).toBe(text);
	});

	it('learns the name in an e-mail address written in free text', () => {
		expect(
			redact({ text: 'Letter from Howard Aiken <howard.aiken@harvard.example> about GRACE HOPPER (grace.hopper@navy.example).' })
				.text,
		).toBe('Letter from NAME_1 <EMAIL_1> about NAME_2 (EMAIL_2).');
	});

	it('takes an audit log’s IP address and user agent for personal data', () => {
		expect(redact({ email: 'ada@example.org', ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0' })).toEqual({
			email: 'EMAIL_1',
			ipAddress: 'IP_1',
			userAgent: 'DEVICE_1',
		});
	});

	it('keeps the names of things in plural fields: tags, lists', () => {
		const record = { tags: [{ id: 't1', name: 'residency' }], lists: [{ id: 'l1', name: 'Reading' }] };
		expect(redact(record)).toEqual(record);
		expect(redact({ referees: [{ name: 'Charles Babbage' }] })).toEqual({ referees: [{ name: 'NAME_1' }] });
	});
});
