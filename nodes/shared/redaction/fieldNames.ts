import type { Kind } from './types';

/*
 * Field names are judged by their words, whatever the naming style: `candidateName`,
 * `first_name`, `Full Name`, `emergency-contact-name` and `APPLICANTFULLNAME` all split
 * into words (or, run together, are matched by stems).
 */
export function words(field: string): string[] {
	return field
		.replace(/([a-z\d])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z\d]+/)
		.filter(Boolean);
}

/**
 * Words that, in front of "name", say it names a thing and not a person: `fileName`,
 * `surveyName`, `companyName`. Any other `…Name` is taken for a person's name, because a
 * leaked name costs more than a pseudonymised survey title.
 */
export const THING_WORDS = new Set(
	(
		'file folder path survey company org organisation organization business employer firm ' +
		'institution school university college project product event host domain server app ' +
		'application brand team group list tag template document doc form field column table key ' +
		'variable var package module class type step stage workflow node device model channel venue ' +
		'course programme program job role position title category bank pet plan tier service ' +
		'campaign workshop session room building site website web store shop branch department dept ' +
		'unit code bucket queue topic track residency studio gallery exhibition artwork piece song ' +
		'album book film movie series show game item asset resource layer sheet tab page section ' +
		'question option choice status state region attribute property label'
	).split(' '),
);

/** Words that make any field personal, however the name goes on: `phoneNumber`, `mobileNo`. */
const EMAIL_STEMS = ['email'];
const EMAIL_WORDS = new Set(['mail']);
const PHONE_STEMS = ['phone'];
const PHONE_WORDS = new Set(['tel', 'mobile', 'cell', 'fax', 'whatsapp', 'msisdn', 'sms']);
const BIRTH_STEMS = ['birth'];
const BIRTH_WORDS = new Set(['dob', 'bday']);
const ADDRESS_STEMS = ['address', 'street', 'postcode', 'zipcode', 'postal'];
const ADDRESS_WORDS = new Set([
	'addr',
	'city',
	'town',
	'zip',
	'country',
	'county',
	'residence',
	'hometown',
]);
const ID_STEMS = ['passport', 'socialsecurity', 'nationalinsurance', 'nationalid', 'taxid'];
const ID_WORDS = new Set(['ssn', 'iban', 'nino']);
/** Names run together in one word (`fname`, `applicantfullname`) end in "name" after one of these. */
const NAME_RUN_TOGETHER =
	/^(?:.*(?:full|first|last|given|family|middle|maiden|legal|nick|user|display|preferred|sur|fore))?names?$|^[flm]names?$/;

function stemOrWord(all: string[], compact: string, stems: string[], set: Set<string>): boolean {
	return stems.some((stem) => compact.includes(stem)) || all.some((word) => set.has(word));
}

/** A thing word, singular or plural: the `name` of an entry in `tags` or `lists` names a tag or a list. */
export const isThingWord = (word: string): boolean =>
	THING_WORDS.has(word) ||
	THING_WORDS.has(word.replace(/s$/, '')) ||
	THING_WORDS.has(word.replace(/ies$/, 'y'));

/** "name" alone (or "names") takes its meaning from the word before it, or from its parent field. */
function isPersonName(all: string[], parentWords: string[]): boolean {
	for (let index = 0; index < all.length; index++) {
		const word = all[index];
		if (word === 'name' || word === 'names') {
			const before = index > 0 ? all[index - 1] : parentWords[parentWords.length - 1];
			const after = all[index + 1] === 'of' ? all[index + 2] : undefined;
			if (before !== undefined && isThingWord(before)) return false;
			if (after !== undefined && isThingWord(after)) return false;
			return true;
		}
		if (word.endsWith('name') || word.endsWith('names')) {
			if (NAME_RUN_TOGETHER.test(word)) return true;
			const stem = word.replace(/names?$/, '');
			if ([...THING_WORDS].some((thing) => stem.endsWith(thing))) return false;
			// `candidatename`, `guardianname`: a person word run together with "name".
			if (stem.length >= 4) return true;
		}
	}
	return false;
}

/** What a field holds, judged by its own name and, for a bare "name", its parent's. */
export function kindOfFieldName(field: string, parent = ''): Kind | undefined {
	const all = words(field);
	if (all.length === 0) return undefined;
	const compact = all.join('');
	if (stemOrWord(all, compact, EMAIL_STEMS, EMAIL_WORDS)) return 'EMAIL';
	if (stemOrWord(all, compact, PHONE_STEMS, PHONE_WORDS)) return 'PHONE';
	if (stemOrWord(all, compact, BIRTH_STEMS, BIRTH_WORDS)) return 'BIRTHDATE';
	if (stemOrWord(all, compact, ID_STEMS, ID_WORDS)) return 'ID';
	// An audit log's `ipAddress` and `userAgent` say where and on what device someone acted.
	if (all.includes('ip')) return 'IP';
	if (compact.includes('useragent')) return 'DEVICE';
	if (stemOrWord(all, compact, ADDRESS_STEMS, ADDRESS_WORDS)) return 'ADDRESS';
	if (isPersonName(all, words(parent))) return 'NAME';
	return undefined;
}

/**
 * Fields named after a person (`guardian`, `referee`, `nextOfKin`, `parentOrGuardian`) hold a
 * name when their answer is text; when it is an object or a list, its own fields are judged.
 */
const PERSON_WORDS = new Set(
	(
		'applicant candidate guardian parent mother father spouse partner referee mentor supervisor ' +
		'witness signer signatory recipient respondent kin'
	).split(' '),
);
const PERSON_COMPOUNDS = ['contactperson', 'emergencycontact', 'nextofkin'];

export function namesAPerson(field: string): boolean {
	const all = words(field.split('.').pop() ?? '').map((word) => word.replace(/\d+$/, ''));
	const compact = all.join('');
	const last = all[all.length - 1];
	return (
		(last !== undefined && PERSON_WORDS.has(last.replace(/s$/, ''))) ||
		PERSON_COMPOUNDS.some((compound) => compact.endsWith(compound))
	);
}

/** Field names whose numbers are times, counts or amounts, never phone numbers. */
const NUMERIC_FIELD_WORDS = new Set(
	(
		'at time date timestamp ts epoch created updated modified ms seconds sec duration ttc id ' +
		'count total amount sum size bytes price cost budget score rating version'
	).split(' '),
);

/** Whether a field's name says its numbers are times, counts or amounts. */
export function holdsQuantities(field: string): boolean {
	return words(field).some((word) => NUMERIC_FIELD_WORDS.has(word));
}

/** `passport number`, `passportNumber` and `Passport_Number` name the same field. */
export function normaliseFieldPath(field: string): string {
	return field
		.trim()
		.split('.')
		.filter((segment) => !/^\d+$/.test(segment.trim()))
		.map((segment) => words(segment).join(''))
		.join('.');
}
