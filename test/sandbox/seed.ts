/**
 * Demo data that tells the flagship story: applications to a residency, reviewed and
 * decided in the survey service, agreements in the signing service, reading and
 * portfolios in the bookmark service. Times are relative to the moment of seeding.
 */
import type { ResponseRecord, SurveyRecord } from './survey';

export const SEED = {
	residencySurveyId: 'srv_residency_2026',
	alumniSurveyId: 'srv_alumni_feedback',
	draftSurveyId: 'srv_mentor_signup',
	residencyTemplateId: 'tpl_residency_agreement',
	ndaTemplateId: 'tpl_mutual_nda',
	applicationsListId: 'list_applications',
	readingListId: 'list_reading',
} as const;

const DAY = 24 * 3600 * 1000;
const ago = (days: number, plusSeconds = 0) => new Date(Date.now() - days * DAY + plusSeconds * 1000).toISOString();

export function seedSurveys(): SurveyRecord[] {
	return [
		{ id: SEED.residencySurveyId, name: 'Residency application', status: 'inProgress', type: 'link', createdAt: ago(45) },
		{ id: SEED.alumniSurveyId, name: 'Alumni feedback', status: 'completed', type: 'app', createdAt: ago(120) },
		{ id: SEED.draftSurveyId, name: 'Mentor sign-up', status: 'draft', type: 'link', createdAt: ago(2) },
	];
}

const applicants: Array<[string, string, string, string, number, number, boolean]> = [
	// name, e-mail local part, phone, decision, days ago, seconds to finish, finished
	['Ada Lovelace', 'ada.lovelace', '+44 20 7946 0958', 'approved', 20, 840, true],
	['Grace Hopper', 'grace.hopper', '+1 202 555 0143', 'approved', 10, 1260, true],
	['Alan Turing', 'alan.turing', '+44 161 496 0123', 'rejected', 6, 600, true],
	['Katherine Johnson', 'katherine.johnson', '+1 757 555 0110', 'pending', 3, 1500, true],
	['Hedy Lamarr', 'hedy.lamarr', '+43 1 555 0199', 'approved', 2, 720, true],
	['Mary Somerville', 'mary.somerville', '+44 131 496 0457', '', 1, 120, false],
];

export function seedResponses(): ResponseRecord[] {
	const residency = applicants.map(([name, local, phone, decision, days, seconds, finished], index) => ({
		id: `resp_residency_${String(index + 1).padStart(3, '0')}`,
		surveyId: SEED.residencySurveyId,
		createdAt: ago(days),
		updatedAt: ago(days, seconds),
		finished,
		data: {
			fullName: name,
			email: `${local}@example.org`,
			phone,
			portfolio: `https://portfolio.example.org/${local.replace('.', '-')}`,
			statement: `I would like to spend the residency on a new body of work. Contact: ${local}@example.org.`,
			decision,
		},
		meta: { source: 'link' },
	}));
	const alumni = [
		['Rosalind Franklin', 'rosalind.franklin', 5, 'The studio time was invaluable.'],
		['Lise Meitner', 'lise.meitner', 4, 'More critique sessions, please.'],
		['Emmy Noether', 'emmy.noether', 5, 'A generous and focused programme.'],
	].map(([name, local, rating, comment], index) => ({
		id: `resp_alumni_${String(index + 1).padStart(3, '0')}`,
		surveyId: SEED.alumniSurveyId,
		createdAt: ago(90 - index * 7),
		updatedAt: ago(90 - index * 7, 300),
		finished: true,
		data: { fullName: name, email: `${local}@example.org`, rating, comment },
		meta: { source: 'app' },
	}));
	return [...residency, ...alumni] as ResponseRecord[];
}

export function seedLists() {
	return [
		{ id: SEED.applicationsListId, name: 'Applications', icon: '📁' },
		{ id: SEED.readingListId, name: 'Reading', icon: '📚' },
	];
}

export function seedBookmarks() {
	return [
		{
			type: 'link' as const,
			url: 'https://portfolio.example.org/ada-lovelace',
			title: 'Portfolio – Ada Lovelace',
			note: 'Residency applicant, strong generative work',
			tags: ['residency', 'portfolio'],
			listIds: [SEED.applicationsListId],
			description: 'Notes on the Analytical Engine, illustrated',
			createdAt: ago(19),
		},
		{
			type: 'link' as const,
			url: 'https://portfolio.example.org/grace-hopper',
			title: 'Portfolio – Grace Hopper',
			note: 'Residency applicant',
			tags: ['residency', 'portfolio'],
			listIds: [SEED.applicationsListId],
			description: 'Compilers as a creative medium',
			createdAt: ago(9),
		},
		{
			type: 'link' as const,
			url: 'https://essays.example.org/on-attunement',
			title: 'On attunement',
			note: 'Key text for the residency theme',
			tags: ['reading', 'essay'],
			listIds: [SEED.readingListId],
			description: 'An essay on listening to materials',
			createdAt: ago(30),
		},
		{
			type: 'link' as const,
			url: 'https://archive.example.org/scans/letter-1843.pdf',
			title: 'Letter, 1843 (scan)',
			note: 'Scanned letter; transcript by OCR',
			tags: ['archive', 'reading'],
			listIds: [SEED.readingListId],
			description: 'Scanned correspondence',
			ocrText: 'My dear Babbage, the engine might compose elaborate pieces of music…',
			createdAt: ago(25),
		},
		{
			type: 'link' as const,
			url: 'https://news.example.org/residency-2026-announced',
			title: 'Residency 2026 announced',
			note: '',
			tags: ['residency', 'press'],
			listIds: [],
			description: 'Call for applications',
			createdAt: ago(44),
		},
		{
			type: 'link' as const,
			url: 'https://video.example.org/studio-visit',
			title: 'Studio visit (video)',
			note: 'Walkthrough of last year’s open studios',
			tags: ['video'],
			listIds: [SEED.readingListId],
			description: 'Open studios 2025',
			createdAt: ago(12),
		},
	];
}
