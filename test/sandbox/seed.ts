/**
 * Demo data that tells the flagship story: applications to a residency, reviewed and decided
 * in the survey service, agreements in the signing service, reading and portfolios in the
 * bookmark service. Times are relative to the moment of seeding, so that "the last 7 days"
 * always has something in it.
 */
import type { BookmarkFields } from './bookmark';
import { daysAgo } from './ids';
import type { ResponseRecord, SurveyRecord } from './survey';

export const SEED = {
	residencySurveyId: 'srv_residency_2026',
	alumniSurveyId: 'srv_alumni_feedback',
	draftSurveyId: 'srv_mentor_signup',
	/** Ada Lovelace's application: finished, approved. */
	adaResponseId: 'resp_residency_001',
	/** The one application still in progress. */
	unfinishedResponseId: 'resp_residency_006',
	residencyTemplateId: 'tpl_residency_agreement',
	ndaTemplateId: 'tpl_mutual_nda',
	applicationsListId: 'list_applications',
	readingListId: 'list_reading',
	adaPortfolioBookmarkId: 'bm_seed_ada_portfolio',
	/** The scanned letter, the record with OCR text. */
	scannedLetterBookmarkId: 'bm_seed_letter_1843',
} as const;

/** How many records each service holds after seeding. */
export const SEED_COUNTS = {
	residencyResponses: 6,
	alumniResponses: 3,
	surveys: 3,
	templates: 2,
	bookmarks: 7,
} as const;

// ---- Signing templates (the signing lifecycle's seed block) ----

export type TemplateFieldType = 'text' | 'number' | 'date' | 'checkbox' | 'dropdown';

export interface TemplateField {
	id: string;
	label: string;
	type: TemplateFieldType;
	/** Only for dropdown fields. */
	options?: string[];
}

export interface SigningTemplate {
	id: string;
	title: string;
	createdAt: string;
	updatedAt: string;
	recipients: Array<{ placeholder: string; role: 'SIGNER' | 'APPROVER' | 'VIEWER' | 'CC' }>;
	/** The prefillable fields. */
	fields: TemplateField[];
}

/** Field ids the demo and the tests prefill; every field type appears in each template. */
export const SEED_TEMPLATE_FIELDS = {
	residency: {
		projectTitle: 'fld_residency_project_title',
		stipend: 'fld_residency_stipend',
		startDate: 'fld_residency_start_date',
		housing: 'fld_residency_housing',
		studio: 'fld_residency_studio',
	},
	nda: {
		purpose: 'fld_nda_purpose',
		termMonths: 'fld_nda_term_months',
		effectiveDate: 'fld_nda_effective_date',
		mutual: 'fld_nda_mutual',
		jurisdiction: 'fld_nda_jurisdiction',
	},
} as const;

export function seedTemplates(): SigningTemplate[] {
	const residency = SEED_TEMPLATE_FIELDS.residency;
	const nda = SEED_TEMPLATE_FIELDS.nda;
	return [
		{
			id: SEED.residencyTemplateId,
			title: 'Residency agreement',
			createdAt: daysAgo(60),
			updatedAt: daysAgo(30),
			recipients: [
				{ placeholder: 'Applicant', role: 'SIGNER' },
				{ placeholder: 'Director', role: 'APPROVER' },
			],
			fields: [
				{ id: residency.projectTitle, label: 'Project title', type: 'text' },
				{ id: residency.stipend, label: 'Monthly stipend (EUR)', type: 'number' },
				{ id: residency.startDate, label: 'Start date', type: 'date' },
				{ id: residency.housing, label: 'Housing included', type: 'checkbox' },
				{
					id: residency.studio,
					label: 'Studio',
					type: 'dropdown',
					options: ['North studio', 'South studio', 'Print workshop'],
				},
			],
		},
		{
			id: SEED.ndaTemplateId,
			title: 'Mutual non-disclosure agreement',
			createdAt: daysAgo(90),
			updatedAt: daysAgo(90),
			recipients: [
				{ placeholder: 'Party A', role: 'SIGNER' },
				{ placeholder: 'Party B', role: 'SIGNER' },
			],
			fields: [
				{ id: nda.purpose, label: 'Purpose', type: 'text' },
				{ id: nda.termMonths, label: 'Term (months)', type: 'number' },
				{ id: nda.effectiveDate, label: 'Effective date', type: 'date' },
				{ id: nda.mutual, label: 'Mutual', type: 'checkbox' },
				{
					id: nda.jurisdiction,
					label: 'Jurisdiction',
					type: 'dropdown',
					options: ['England and Wales', 'Germany', 'New York'],
				},
			],
		},
	];
}

// ---- end of signing templates ----

export function seedSurveys(): SurveyRecord[] {
	return [
		{
			id: SEED.residencySurveyId,
			name: 'Residency application',
			status: 'inProgress',
			type: 'link',
			createdAt: daysAgo(45),
		},
		{
			id: SEED.alumniSurveyId,
			name: 'Alumni feedback',
			status: 'completed',
			type: 'app',
			createdAt: daysAgo(120),
		},
		{
			id: SEED.draftSurveyId,
			name: 'Mentor sign-up',
			status: 'draft',
			type: 'link',
			createdAt: daysAgo(2),
		},
	];
}

const applicants: Array<{
	name: string;
	phone: string;
	decision: string;
	days: number;
	minutes: number;
}> = [
	{ name: 'Ada Lovelace', phone: '+44 20 7946 0958', decision: 'approved', days: 20, minutes: 14 },
	{ name: 'Grace Hopper', phone: '+1 202 555 0143', decision: 'approved', days: 10, minutes: 21 },
	{ name: 'Alan Turing', phone: '+44 161 496 0123', decision: 'rejected', days: 6, minutes: 10 },
	{
		name: 'Katherine Johnson',
		phone: '+1 757 555 0110',
		decision: 'pending',
		days: 3,
		minutes: 25,
	},
	{ name: 'Hedy Lamarr', phone: '+43 1 555 0199', decision: 'approved', days: 2, minutes: 12 },
	{ name: 'Mary Somerville', phone: '+44 131 496 0457', decision: '', days: 1, minutes: 2 },
];

export function seedResponses(): ResponseRecord[] {
	const residency = applicants.map(
		({ name, phone, decision, days, minutes }, index): ResponseRecord => {
			const local = name.toLowerCase().replace(' ', '.');
			const id = `resp_residency_${String(index + 1).padStart(3, '0')}`;
			// The application in progress has only its first page answered.
			const finished = id !== SEED.unfinishedResponseId;
			return {
				id,
				surveyId: SEED.residencySurveyId,
				createdAt: daysAgo(days),
				updatedAt: daysAgo(days, minutes * 60),
				finished,
				data: {
					fullName: name,
					email: `${local}@example.org`,
					phone,
					...(finished
						? {
								portfolio: `https://portfolio.example.org/${local.replace('.', '-')}`,
								statement: `I would like to spend the residency on a new body of work. Contact: ${local}@example.org.`,
								decision,
							}
						: {}),
				},
				meta: { source: 'link' },
			};
		},
	);
	const alumni = [
		{ name: 'Rosalind Franklin', rating: 5, comment: 'The studio time was invaluable.' },
		{ name: 'Lise Meitner', rating: 4, comment: 'More critique sessions, please.' },
		{ name: 'Emmy Noether', rating: 5, comment: 'A generous and focused programme.' },
	].map(
		({ name, rating, comment }, index): ResponseRecord => ({
			id: `resp_alumni_${String(index + 1).padStart(3, '0')}`,
			surveyId: SEED.alumniSurveyId,
			createdAt: daysAgo(90 - index * 7),
			updatedAt: daysAgo(90 - index * 7, 300),
			finished: true,
			data: {
				fullName: name,
				email: `${name.toLowerCase().replace(' ', '.')}@example.org`,
				rating,
				comment,
			},
			meta: { source: 'app' },
		}),
	);
	return [...residency, ...alumni];
}

export function seedLists() {
	return [
		{ id: SEED.applicationsListId, name: 'Applications', icon: '📁' },
		{ id: SEED.readingListId, name: 'Reading', icon: '📚' },
	];
}

export function seedBookmarks(): BookmarkFields[] {
	return [
		{
			id: SEED.adaPortfolioBookmarkId,
			type: 'link',
			url: 'https://portfolio.example.org/ada-lovelace',
			title: 'Portfolio – Ada Lovelace',
			note: 'Residency applicant, strong generative work',
			tags: ['residency', 'portfolio'],
			listIds: [SEED.applicationsListId],
			description: 'Notes on the Analytical Engine, illustrated',
			createdAt: daysAgo(19),
		},
		{
			id: 'bm_seed_grace_portfolio',
			type: 'link',
			url: 'https://portfolio.example.org/grace-hopper',
			title: 'Portfolio – Grace Hopper',
			note: 'Residency applicant',
			tags: ['residency', 'portfolio'],
			listIds: [SEED.applicationsListId],
			description: 'Compilers as a creative medium',
			createdAt: daysAgo(9),
		},
		{
			id: 'bm_seed_on_attunement',
			type: 'link',
			url: 'https://essays.example.org/on-attunement',
			title: 'On attunement',
			note: 'Key text for the residency theme',
			tags: ['reading', 'essay'],
			listIds: [SEED.readingListId],
			description: 'An essay on listening to materials',
			createdAt: daysAgo(30),
		},
		{
			id: SEED.scannedLetterBookmarkId,
			type: 'link',
			url: 'https://archive.example.org/scans/letter-1843.pdf',
			title: 'Letter, 1843 (scan)',
			note: 'Scanned letter; transcript by OCR',
			tags: ['archive', 'reading'],
			listIds: [SEED.readingListId],
			description: 'Scanned correspondence',
			ocrText: 'My dear Babbage, the engine might compose elaborate pieces of music…',
			createdAt: daysAgo(25),
		},
		{
			id: 'bm_seed_call_announced',
			type: 'link',
			url: 'https://news.example.org/residency-2026-announced',
			title: 'Residency 2026 announced',
			tags: ['residency', 'press'],
			description: 'Call for applications',
			createdAt: daysAgo(44),
		},
		{
			id: 'bm_seed_studio_visit',
			type: 'link',
			url: 'https://video.example.org/studio-visit',
			title: 'Studio visit (video)',
			note: 'Walkthrough of last year’s open studios',
			tags: ['video'],
			listIds: [SEED.readingListId],
			description: 'Open studios 2025',
			createdAt: daysAgo(12),
		},
		{
			id: 'bm_seed_interview_questions',
			type: 'text',
			title: 'Interview questions',
			text: 'What would you make with a year of studio time? Which material do you listen to?',
			note: 'For the shortlist interviews',
			tags: ['residency'],
			listIds: [SEED.applicationsListId],
			createdAt: daysAgo(4),
		},
	];
}
