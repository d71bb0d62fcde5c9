/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Traffic for the queue-mode sample "Application approved → signing envelope": approved
 * applications as the survey service signs and delivers them, and a tally of what the workflow
 * did about each, read from the sandbox (envelopes sent, drafts left, bookmarks filed), so that
 * a test or a chaos run can say which application was handled once, twice or never.
 */
import type { Webhook } from 'standardwebhooks';

import { type Sandbox, standardWebhookHeaders } from '../sandbox';
import { sandboxControl } from '../unit/helpers/sandbox';

export const RESIDENCY_SURVEY = 'srv_residency_2026';

export interface Application {
	responseId: string;
	/** The Standard Webhooks `webhook-id` of its `responseFinished` delivery (the same on every copy and redelivery). */
	deliveryId: string;
	email: string;
	portfolio: string;
	/** The delivery's body, as the survey service sends it. */
	body: string;
}

export function applicationAnswers(label: string, index: number) {
	return {
		fullName: `Applicant ${label} ${index}`,
		email: `applicant-${label}-${index}@example.org`,
		portfolio: `https://portfolio.example.org/${label}/${index}`,
		decision: 'approved',
	};
}

function application(responseId: string, createdAt: string, data: ReturnType<typeof applicationAnswers>, deliveryId: string): Application {
	return {
		responseId,
		deliveryId,
		email: data.email,
		portfolio: data.portfolio,
		body: JSON.stringify({ event: 'responseFinished', surveyId: RESIDENCY_SURVEY, responseId, createdAt, data }),
	};
}

/** An approved application the survey service does not hold (only its delivery exists): the reconcile never sees it. */
export function deliveredOnlyApplication(label: string, index: number): Application {
	return application(`resp_${label}_${index}`, new Date().toISOString(), applicationAnswers(label, index), `msg_${label}_${index}`);
}

/**
 * An approved application stored in the survey service without any delivery (`deliver: false`),
 * as when every delivery of it was lost; the caller sends its delivery, or not.
 */
export async function storedApplication(sandbox: Sandbox, label: string, index: number): Promise<Application> {
	const data = applicationAnswers(label, index);
	const { data: stored } = await sandboxControl(sandbox, 'survey').call<{ data: { id: string; createdAt: string } }>(
		'POST',
		`/surveys/${RESIDENCY_SURVEY}/responses`,
		{ data, finished: true, deliver: false },
	);
	return application(stored.id, stored.createdAt, data, `msg_${label}_${index}`);
}

/** Sends one signed copy of the application's delivery; the HTTP status, or 0 when no answer came. */
export async function deliverApplication(url: string, signer: Webhook, app: Application, timeoutMs = 30_000): Promise<number> {
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers: standardWebhookHeaders(signer, app.deliveryId, app.body),
			body: app.body,
			signal: AbortSignal.timeout(timeoutMs),
		});
		await response.arrayBuffer();
		return response.status;
	} catch {
		return 0;
	}
}

/**
 * Delivers as the service does: again after a refusal (non-2xx, or no answer), up to `attempts`
 * times, a second apart. The status of each attempt, the last one accepted unless all were refused.
 */
export async function deliverUntilAccepted(
	url: string,
	signer: Webhook,
	app: Application,
	{ attempts = 10, timeoutMs = 30_000 }: { attempts?: number; timeoutMs?: number } = {},
): Promise<number[]> {
	const statuses: number[] = [];
	for (let attempt = 1; attempt <= attempts; attempt++) {
		const status = await deliverApplication(url, signer, app, timeoutMs);
		statuses.push(status);
		if (status >= 200 && status < 300) break;
		await new Promise((resolve) => setTimeout(resolve, 1_000));
	}
	return statuses;
}

export interface Effects {
	/** Per e-mail: envelopes sent (documents past DRAFT) and drafts never sent. */
	sent: Map<string, number>;
	drafts: Map<string, number>;
	/** Requests to send a document: more than one for a document means a second send was tried. */
	sendRequests: number;
	generateRequests: number;
	/** Per URL: bookmarks created (201), and creations the service answered "already exists" (200). */
	bookmarksCreated: Map<string, number>;
	bookmarksRepeated: Map<string, number>;
}

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** What the sample did, as the signing and bookmark services saw it. */
export async function tallyEffects(sandbox: Sandbox): Promise<Effects> {
	const signing = sandboxControl(sandbox, 'signing');
	const { documents } = await signing.call<{
		documents: Array<{ status: string; recipients: Array<{ email: string }> }>;
	}>('GET', '/documents');
	const sent = new Map<string, number>();
	const drafts = new Map<string, number>();
	for (const document of documents) {
		for (const recipient of document.recipients) count(document.status === 'DRAFT' ? drafts : sent, recipient.email);
	}
	const signingRequests = await signing.requests();
	const posts = (path: RegExp) => signingRequests.filter((request) => request.method === 'POST' && path.test(request.path));
	const bookmarksCreated = new Map<string, number>();
	const bookmarksRepeated = new Map<string, number>();
	for (const request of await sandboxControl(sandbox, 'bookmark').requests()) {
		if (request.method !== 'POST' || request.path !== '/api/v1/bookmarks') continue;
		const url = String((request.body as { url?: string }).url);
		if (request.status === 201) count(bookmarksCreated, url);
		if (request.status === 200) count(bookmarksRepeated, url);
	}
	return {
		sent,
		drafts,
		sendRequests: posts(/^\/api\/v2\/documents\/[^/]+\/send$/).length,
		generateRequests: posts(/\/generate-document$/).length,
		bookmarksCreated,
		bookmarksRepeated,
	};
}

export interface Outcome {
	/** Exactly one envelope sent and one portfolio bookmark filed. */
	handledOnce: Application[];
	/** No envelope sent or no bookmark filed. */
	notHandled: Application[];
	/** More than one envelope sent, or more than one bookmark filed. */
	duplicated: Application[];
}

export function outcomeOf(applications: Application[], effects: Effects): Outcome {
	const outcome: Outcome = { handledOnce: [], notHandled: [], duplicated: [] };
	for (const app of applications) {
		const sent = effects.sent.get(app.email) ?? 0;
		const filed = effects.bookmarksCreated.get(app.portfolio) ?? 0;
		if (sent > 1 || filed > 1) outcome.duplicated.push(app);
		else if (sent === 1 && filed === 1) outcome.handledOnce.push(app);
		else outcome.notHandled.push(app);
	}
	return outcome;
}
