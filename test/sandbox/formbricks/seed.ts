/**
 * The flagship story of the sandbox's seed (../seed.ts), as a Formbricks server holds it: the same
 * surveys and applicants, but every id is random (as Formbricks' editor makes them), headlines are
 * per-language objects, the residency form is in English and German, responses carry the `meta`
 * Formbricks fills in (survey URL, user agent, country) and, for the app survey answered by known
 * contacts, the contact and its attributes. Times are relative to the moment of seeding.
 */
import { daysAgo } from './timing';
import type {
	AttributeKeyRow,
	AttributeRow,
	Block,
	ContactRow,
	Element,
	I18n,
	ResponseRow,
	SegmentRow,
	SurveyRow,
	Workspace,
} from './records';

/** Fixed ids that look like Formbricks' random ones, so that tests and demos can name them. */
export const FORMBRICKS_SEED = {
	organizationId: 'cm2tgthat0bwcx99y2b33thom',
	workspaceId: 'cmpftjjwzhxblhsvszbrd0mig',
	/** The key's user, who created the surveys. */
	userId: 'cmpjt8un3fzl0pk63ojypbg95',
	surveys: {
		residency: 'cm528ees1o77yr7b0j001qycz',
		alumni: 'cm9tjg001xqppwybfh68x6m1k',
		mentor: 'cmlfasv33w85ytam1hya8lrk1',
		erasure: 'cmuo3td33fgjf2qnzrhwl11t4',
	},
	/** Question ids: random, only the headline says what a question asks. */
	questions: {
		residency: {
			fullName: 'aijiivxhccu10y7oy67d53o9',
			email: 'm5k2uns5r30i57yk4hywd6q1',
			phone: 'ov7zwt6ob2wdhcy21q3fm83g',
			portfolio: 'kocawpcwblp6ys978w5phi7i',
			statement: 'tllphj7nd84te3qp4f6ww3hc',
			decision: 'gsxtv9s641ucawmav3mov2mo',
		},
		alumni: {
			fullName: 'wcypjtc26zhqf8tgvhrg800z',
			email: 'ux3kzr9o4egc283eotmgzjg6',
			rating: 'h1xp05m8gxm9u6842x8jdtez',
			highlights: 'shrl2itvxc7mgshnj3dat5nf',
			comment: 'b5n8jxn64n9krt5qyrkwi0ue',
			suggestion: 'xccekhudmyhszf75wg65p12k',
		},
		mentor: {
			fullName: 'nn00qsn6y7pl0rmcwabhhq4i',
			email: 'kbfg4o0a2jg0xhjufwqo24rq',
			areas: 'kfjv8r9kgo54v9e785t16ddi',
			availableFrom: 'z8fv2nst0ak2rmg1fgf4p2xt',
			recommend: 'zh59uiabtjdfl77xs0rzg1wc',
			cv: 'j729xdhl3edxx962v2cixc4w',
			contact: 'rj5y6h82od7ti3wh01etvyi0',
			consent: 'oyhf0audbjxwqqgpkpr1dzu4',
		},
		erasure: {
			email: 'xjlk1zldfebinqiprfd5r4p0',
			confirmation: 'cd1c8bu6q0h2ugo9bmtmadi4',
		},
	},
	/** The alumni who answered the app survey as known contacts (Enterprise: contacts). */
	contacts: {
		rosalind: 'cmp64q5snvfzwchrz7igfhevq',
		lise: 'cm9obwdtfucmrkbt99kzj5b8i',
		emmy: 'cma9gmzhz325tffvk71nuwey2',
	},
	/** A segment of the alumni contacts (`cohort` is `2025`): Rosalind and Emmy. */
	segments: { cohort2025: 'cms9xq2c4hw7f1kd0n3bz8tpe' },
	responses: {
		/** Ada Lovelace's application: finished, approved. */
		ada: 'cm2279tlxqd4a1crz44ouub0f',
		/** The one application still in progress. */
		unfinished: 'cmk2obs5j7oloiwgjgmorv031',
	},
} as const;

/**
 * The question ids the sample workflows read (the documented seed's, ../seed.ts), as a Formbricks
 * user who runs the samples gives them to the residency and erasure surveys in Formbricks' editor
 * (question → Advanced settings → Question ID). `npm start` with SURVEYS=formbricks seeds them.
 */
export const SAMPLE_QUESTION_IDS = {
	residency: {
		fullName: 'fullName',
		email: 'email',
		phone: 'phone',
		portfolio: 'portfolio',
		statement: 'statement',
		decision: 'decision',
	},
	erasure: { email: 'email', confirmation: 'confirmation' },
} as const;

/** The seed's question ids: random, or those the samples read. */
function questionIds(sampleQuestionIds: boolean) {
	return sampleQuestionIds ? { ...FORMBRICKS_SEED.questions, ...SAMPLE_QUESTION_IDS } : FORMBRICKS_SEED.questions;
}

export const FORMBRICKS_SEED_COUNTS = { residencyResponses: 6, alumniResponses: 3, surveys: 4 } as const;

const RESIDENCY_RESPONSE_IDS = [
	FORMBRICKS_SEED.responses.ada,
	'cmqtdywe6egpw3l0xowgp3f5v',
	'cmjxx4vvgrffxx0domb3b2zij',
	'cm41v7lhz1ojtojtet3obzedr',
	'cma8axf0giha93pb5n19gcc3w',
	FORMBRICKS_SEED.responses.unfinished,
];
const ALUMNI_RESPONSE_IDS = [
	'cmoxcehf0o6468e0z4x4mp8v7',
	'cmu5ep8foyeu6681na7ewzfid',
	'cm4pkdqq6v657sbbwq6ylpech',
];
const CONTACT_IDS = [FORMBRICKS_SEED.contacts.rosalind, FORMBRICKS_SEED.contacts.lise, FORMBRICKS_SEED.contacts.emmy];
const ENDING_ID = 'ux5kjf7n2q8wbd0c3lmz9p4r';
const CHOICE_IDS = [
	'c4q6kuop8d98x4cxcpl03dre',
	'h9iynmvx9swne0l20xxtidmp',
	's6sehdtj2f993bfnwiaaeyrr',
	'mpyfpyepyudenr7r27vtj4yl',
	'p3nsd451ajvm5e8e453fa0cd',
	'fk54g8jxhu5kvdtvojhcf99a',
	'j86a2lz0phhl0r9op17guqpw',
	'fmp7fvwofp15o683bcbjscvy',
	't9avs4m50kos2skjnkujcy30',
	'jet0xh3bc9n1texz7f30c64f',
	'p6ljk2m6rl6o4bi16rt80h1w',
];
const BLOCK_IDS = [
	'nt3lqqvb61atru7ubntnofnx',
	'jk6sxvib3zcz6c8ohhi206jp',
	'g4f0jqv73g40wlr2dpk3kusz',
	'btvh04oan737ur40vir3nzu0',
	'vb225d988b509h1hmlh5y024',
	'cuch5xwqyz6l5ev5qjo7zbuo',
	'ds04vu1qacyv0ba1zq0je1sr',
	'cmstt2j402f7aw1vf1az6rzr1',
];

export function seedWorkspace(legacyEnvironmentId: string | null): Workspace {
	return {
		id: FORMBRICKS_SEED.workspaceId,
		name: 'Residency programme',
		legacyEnvironmentId,
		organizationId: FORMBRICKS_SEED.organizationId,
		createdAt: daysAgo(400),
		updatedAt: daysAgo(30),
		appSetupCompleted: true,
	};
}

const i18n = (text: string, de?: string): I18n => ({ default: text, ...(de ? { de } : {}) });

let choiceIndex = 0;
const choices = (...labels: string[]) =>
	labels.map((label) => ({ id: CHOICE_IDS[choiceIndex++ % CHOICE_IDS.length], label: i18n(label) }));

const openText = (id: string, headline: I18n, required: boolean, inputType = 'text'): Element => ({
	id,
	type: 'openText',
	headline,
	required,
	inputType,
	charLimit: { enabled: false },
	placeholder: i18n('Type your answer here...'),
});

/** One element per block, as Formbricks' editor lays a survey out. */
function blocks(elements: Element[]): Block[] {
	return elements.map((element, index) => ({
		id: BLOCK_IDS[index % BLOCK_IDS.length] + (index >= BLOCK_IDS.length ? String(index) : ''),
		name: `Block ${index + 1}`,
		elements: [element],
	}));
}

/** A survey row with the defaults Formbricks' editor gives a new survey. */
export function surveyRow(input: {
	id: string;
	name: string;
	type: SurveyRow['type'];
	status: SurveyRow['status'];
	createdAt: string;
	elements: Element[];
	languages?: string[];
}): SurveyRow {
	return {
		id: input.id,
		createdAt: input.createdAt,
		updatedAt: input.createdAt,
		name: input.name,
		type: input.type,
		workspaceId: FORMBRICKS_SEED.workspaceId,
		createdBy: FORMBRICKS_SEED.userId,
		status: input.status,
		welcomeCard: { enabled: false, timeToFinish: true, showResponseCount: false },
		questions: [],
		blocks: blocks(input.elements),
		endings: [
			{
				id: ENDING_ID,
				type: 'endScreen',
				headline: i18n('Thank you!'),
				subheader: i18n('We appreciate your feedback.'),
			},
		],
		hiddenFields: { enabled: true, fieldIds: [] },
		variables: [],
		displayOption: 'displayOnce',
		recontactDays: null,
		displayLimit: null,
		autoClose: null,
		delay: 0,
		displayPercentage: null,
		autoComplete: null,
		publishOn: null,
		closeOn: null,
		archivedAt: null,
		isVerifyEmailEnabled: false,
		isSingleResponsePerEmailEnabled: false,
		isBackButtonHidden: false,
		isAutoProgressingEnabled: false,
		isCaptureIpEnabled: false,
		redirectUrl: null,
		workspaceOverwrites: null,
		styling: null,
		surveyClosedMessage: null,
		singleUse: { enabled: false, isEncrypted: true },
		pin: null,
		showLanguageSwitch: input.languages ? true : null,
		recaptcha: { enabled: false, threshold: 0.1 },
		metadata: {},
		customHeadScripts: null,
		customHeadScriptsMode: 'add',
		languages: (input.languages ?? []).map((code, index) => ({
			default: index === 0,
			enabled: true,
			language: {
				id: `${code}${CHOICE_IDS[index].slice(code.length)}`,
				code,
				alias: null,
				createdAt: input.createdAt,
				updatedAt: input.createdAt,
				workspaceId: FORMBRICKS_SEED.workspaceId,
			},
		})),
		triggers: [],
		segment: null,
		followUps: [],
		slug: null,
	};
}

export function seedSurveys(sampleQuestionIds = false): SurveyRow[] {
	choiceIndex = 0;
	const { residency, alumni, mentor, erasure } = questionIds(sampleQuestionIds);
	return [
		surveyRow({
			id: FORMBRICKS_SEED.surveys.residency,
			name: 'Residency application',
			type: 'link',
			status: 'inProgress',
			createdAt: daysAgo(45),
			languages: ['en', 'de'],
			elements: [
				openText(residency.fullName, i18n('Your full name', 'Ihr vollständiger Name'), true),
				openText(residency.email, i18n('Your e-mail address', 'Ihre E-Mail-Adresse'), true, 'email'),
				openText(residency.phone, i18n('Your phone number', 'Ihre Telefonnummer'), false, 'phone'),
				openText(residency.portfolio, i18n('Link to your portfolio', 'Link zu Ihrem Portfolio'), true, 'url'),
				{
					...openText(residency.statement, i18n('Your artist statement', 'Ihr künstlerisches Statement'), true),
					longAnswer: true,
				},
				{
					id: residency.decision,
					type: 'multipleChoiceSingle',
					headline: i18n('Decision', 'Entscheidung'),
					required: false,
					shuffleOption: 'none',
					choices: choices('approved', 'rejected', 'pending'),
				},
			],
		}),
		surveyRow({
			id: FORMBRICKS_SEED.surveys.alumni,
			name: 'Alumni feedback',
			type: 'app',
			status: 'completed',
			createdAt: daysAgo(120),
			elements: [
				openText(alumni.fullName, i18n('Your name'), true),
				openText(alumni.email, i18n('Your e-mail address'), true, 'email'),
				{
					id: alumni.rating,
					type: 'rating',
					headline: i18n('How would you rate the residency?'),
					required: true,
					scale: 'star',
					range: 5,
					isColorCodingEnabled: false,
				},
				{
					id: alumni.highlights,
					type: 'multipleChoiceMulti',
					headline: i18n('What did you value most?'),
					required: false,
					shuffleOption: 'none',
					choices: choices('Studio time', 'Critique sessions', 'Community', 'Exhibition'),
				},
				openText(alumni.comment, i18n('Anything else?'), false),
				openText(alumni.suggestion, i18n('Anything else?'), false),
			],
		}),
		surveyRow({
			id: FORMBRICKS_SEED.surveys.mentor,
			name: 'Mentor sign-up',
			type: 'link',
			status: 'draft',
			createdAt: daysAgo(2),
			elements: [
				openText(mentor.fullName, i18n('Your full name'), true),
				openText(mentor.email, i18n('Your e-mail address'), true, 'email'),
				{
					id: mentor.areas,
					type: 'multipleChoiceMulti',
					headline: i18n('Which areas can you mentor in?'),
					required: true,
					choices: choices('Painting', 'Sculpture', 'Sound', 'Writing'),
				},
				{ id: mentor.availableFrom, type: 'date', headline: i18n('Available from'), required: false, format: 'y-M-d' },
				{
					id: mentor.recommend,
					type: 'nps',
					headline: i18n('How likely are you to recommend us?'),
					required: false,
					isColorCodingEnabled: false,
				},
				{
					id: mentor.cv,
					type: 'fileUpload',
					headline: i18n('Your CV'),
					required: false,
					allowMultipleFiles: false,
				},
				{
					id: mentor.contact,
					type: 'contactInfo',
					headline: i18n('How can we reach you?'),
					required: false,
					...Object.fromEntries(
						['firstName', 'lastName', 'email', 'phone', 'company'].map((field) => [
							field,
							{ show: true, required: field !== 'company', placeholder: i18n(field) },
						]),
					),
				},
				{
					id: mentor.consent,
					type: 'consent',
					headline: i18n('I agree to be contacted'),
					required: true,
					label: i18n('I agree'),
				},
			],
		}),
		surveyRow({
			id: FORMBRICKS_SEED.surveys.erasure,
			name: 'Delete my data',
			type: 'link',
			status: 'inProgress',
			createdAt: daysAgo(30),
			elements: [
				openText(erasure.email, i18n('The e-mail address you applied with'), true, 'email'),
				{
					id: erasure.confirmation,
					type: 'consent',
					headline: i18n('I ask for my application data to be erased'),
					required: true,
					label: i18n('Yes, erase my application'),
				},
			],
		}),
	];
}

const applicants = [
	{ name: 'Ada Lovelace', phone: '+44 20 7946 0958', decision: 'approved', days: 20, minutes: 14, country: 'GB' },
	{ name: 'Grace Hopper', phone: '+1 202 555 0143', decision: 'approved', days: 10, minutes: 21, country: 'US' },
	{ name: 'Alan Turing', phone: '+44 161 496 0123', decision: 'rejected', days: 6, minutes: 10, country: 'GB' },
	{ name: 'Katherine Johnson', phone: '+1 757 555 0110', decision: 'pending', days: 3, minutes: 25, country: 'US' },
	{ name: 'Hedy Lamarr', phone: '+43 1 555 0199', decision: 'approved', days: 2, minutes: 12, country: 'AT' },
	{ name: 'Mary Somerville', phone: '+44 131 496 0457', decision: '', days: 1, minutes: 2, country: 'GB' },
];

/** A response as the survey's respondent page stores it: meta, ttc, display, ending. */
export function responseRow(input: {
	id: string;
	surveyId: string;
	createdAt: string;
	updatedAt: string;
	finished: boolean;
	data: Record<string, unknown>;
	meta: Record<string, unknown>;
	contact?: { id: string; userId: string; attributes: Record<string, string> };
	language?: string;
}): ResponseRow {
	const keys = Object.keys(input.data);
	const ttc = Object.fromEntries(keys.map((key, index) => [key, 4_000 + index * 1_500]));
	return {
		id: input.id,
		createdAt: input.createdAt,
		updatedAt: input.updatedAt,
		finished: input.finished,
		surveyId: input.surveyId,
		contactId: input.contact?.id ?? null,
		endingId: input.finished ? ENDING_ID : null,
		data: input.data,
		variables: {},
		ttc: input.finished
			? { ...ttc, _total: Object.values(ttc).reduce((sum, value) => sum + value, 0) }
			: ttc,
		meta: input.meta,
		contactAttributes: input.contact?.attributes ?? null,
		singleUseId: null,
		language: input.language ?? 'default',
		displayId: `cmd${input.id.slice(3)}`,
		...(input.contact ? { contactUserId: input.contact.userId } : {}),
		tags: [],
	};
}

const browsers = [
	{ browser: 'Chrome', os: 'macOS', device: 'desktop' },
	{ browser: 'Safari', os: 'iOS', device: 'phone' },
	{ browser: 'Firefox', os: 'Windows', device: 'desktop' },
];

export function seedResponses(sampleQuestionIds = false): ResponseRow[] {
	const { residency, alumni } = questionIds(sampleQuestionIds);
	const residencyRows = applicants.map((applicant, index) => {
		const local = applicant.name.toLowerCase().replace(' ', '.');
		const id = RESIDENCY_RESPONSE_IDS[index];
		const finished = id !== FORMBRICKS_SEED.responses.unfinished;
		return responseRow({
			id,
			surveyId: FORMBRICKS_SEED.surveys.residency,
			createdAt: daysAgo(applicant.days),
			updatedAt: daysAgo(applicant.days, applicant.minutes * 60),
			finished,
			language: index === 4 ? 'de' : 'default',
			data: {
				[residency.fullName]: applicant.name,
				[residency.email]: `${local}@example.org`,
				[residency.phone]: applicant.phone,
				...(finished
					? {
							[residency.portfolio]: `https://portfolio.example.org/${local.replace('.', '-')}`,
							[residency.statement]: `I would like to spend the residency on a new body of work. Contact: ${local}@example.org.`,
							...(applicant.decision ? { [residency.decision]: applicant.decision } : {}),
						}
					: {}),
			},
			meta: {
				source: index % 2 === 0 ? 'newsletter' : 'website',
				url: `https://forms.residency.example.org/s/${FORMBRICKS_SEED.surveys.residency}?source=${index % 2 === 0 ? 'newsletter' : 'website'}`,
				userAgent: browsers[index % browsers.length],
				country: applicant.country,
			},
		});
	});
	const alumniRows = [
		{ first: 'Rosalind', last: 'Franklin', rating: 5, highlights: ['Studio time', 'Community'], comment: 'The studio time was invaluable.', suggestion: 'Longer residencies.' },
		{ first: 'Lise', last: 'Meitner', rating: 4, highlights: ['Critique sessions'], comment: 'More critique sessions, please.' },
		{ first: 'Emmy', last: 'Noether', rating: 5, highlights: ['Studio time', 'Critique sessions', 'Exhibition'], comment: 'A generous and focused programme.', suggestion: 'An alumni show every year.' },
	].map((alumnus, index) => {
		const email = `${alumnus.first}.${alumnus.last}@example.org`.toLowerCase();
		return responseRow({
			id: ALUMNI_RESPONSE_IDS[index],
			surveyId: FORMBRICKS_SEED.surveys.alumni,
			createdAt: daysAgo(90 - index * 7),
			updatedAt: daysAgo(90 - index * 7, 300),
			finished: true,
			data: {
				[alumni.fullName]: `${alumnus.first} ${alumnus.last}`,
				[alumni.email]: email,
				[alumni.rating]: alumnus.rating,
				[alumni.highlights]: alumnus.highlights,
				[alumni.comment]: alumnus.comment,
				...(alumnus.suggestion ? { [alumni.suggestion]: alumnus.suggestion } : {}),
			},
			meta: {
				url: 'https://alumni.residency.example.org/feedback',
				userAgent: browsers[(index + 1) % browsers.length],
				country: 'DE',
				action: 'Opened alumni area',
			},
			contact: {
				id: CONTACT_IDS[index],
				userId: `alumni-${index + 1}`,
				attributes: {
					userId: `alumni-${index + 1}`,
					email,
					firstName: alumnus.first,
					lastName: alumnus.last,
				},
			},
		});
	});
	return [...residencyRows, ...alumniRows];
}

/**
 * The attribute keys every workspace is created with (`DEFAULT_CONTACT_ATTRIBUTE_KEYS`,
 * apps/web/modules/workspaces/settings/lib/workspace.ts), and one custom key of the programme's.
 */
const ATTRIBUTE_KEYS: Array<Pick<AttributeKeyRow, 'id' | 'key' | 'name' | 'description' | 'type' | 'isUnique'>> = [
	{ id: 'cmk0userid0000000000000001', key: 'userId', name: 'User Id', description: 'The user id of a contact', type: 'default', isUnique: true },
	{ id: 'cmk0email00000000000000002', key: 'email', name: 'Email', description: 'The email of a contact', type: 'default', isUnique: true },
	{ id: 'cmk0firstname0000000000003', key: 'firstName', name: 'First Name', description: "Your contact's first name", type: 'default', isUnique: false },
	{ id: 'cmk0lastname00000000000004', key: 'lastName', name: 'Last Name', description: "Your contact's last name", type: 'default', isUnique: false },
	{ id: 'cmk0language00000000000005', key: 'language', name: 'Language', description: 'The language preference of a contact', type: 'default', isUnique: false },
	{ id: 'cmk0cohort0000000000000006', key: 'cohort', name: 'Cohort', description: 'The residency year', type: 'custom', isUnique: false },
];

export function seedAttributeKeys(): AttributeKeyRow[] {
	return ATTRIBUTE_KEYS.map((key, index) => ({
		...key,
		createdAt: daysAgo(400 - index),
		updatedAt: daysAgo(400 - index),
		dataType: 'string',
		workspaceId: FORMBRICKS_SEED.workspaceId,
	}));
}

/** The three alumni as contacts, with the attributes their responses carry and their cohort. */
export function seedContacts(): { contacts: ContactRow[]; attributes: AttributeRow[]; segments: SegmentRow[] } {
	const people = [
		{ first: 'Rosalind', last: 'Franklin', cohort: '2025' },
		{ first: 'Lise', last: 'Meitner', cohort: '2024' },
		{ first: 'Emmy', last: 'Noether', cohort: '2025' },
	];
	const keyId = (key: string) => ATTRIBUTE_KEYS.find((candidate) => candidate.key === key)!.id;
	const contacts: ContactRow[] = [];
	const attributes: AttributeRow[] = [];
	people.forEach((person, index) => {
		const createdAt = daysAgo(150 - index);
		const contactId = CONTACT_IDS[index];
		contacts.push({ id: contactId, createdAt, updatedAt: createdAt, workspaceId: FORMBRICKS_SEED.workspaceId });
		const values: Record<string, string> = {
			userId: `alumni-${index + 1}`,
			email: `${person.first}.${person.last}@example.org`.toLowerCase(),
			firstName: person.first,
			lastName: person.last,
			cohort: person.cohort,
		};
		Object.entries(values).forEach(([key, value], position) => {
			attributes.push({
				id: `cma${contactId.slice(3, 22)}${String(position).padStart(3, '0')}`,
				createdAt,
				updatedAt: createdAt,
				attributeKeyId: keyId(key),
				contactId,
				value,
				valueNumber: null,
				valueDate: null,
			});
		});
	});
	const segments: SegmentRow[] = [
		{
			id: FORMBRICKS_SEED.segments.cohort2025,
			title: 'Cohort 2025',
			workspaceId: FORMBRICKS_SEED.workspaceId,
			filters: [{ key: 'cohort', value: '2025' }],
		},
	];
	return { contacts, attributes, segments };
}
