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
