import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestContext } from '../../shared/request';
import { markedVariables } from '../writeMark';
import { request } from './formbricksRequest';
import type { ResponseWritesCapability } from './types';

/*
 * Responses written through Formbricks' management API v2 (b66c1dd): `POST /api/v2/management/responses`
 * and `PUT /api/v2/management/responses/{id}`. Formbricks runs its response pipeline for both, as for a
 * respondent's answers: webhooks (this pack's Survey Trigger too), integrations, follow-up e-mails. Each
 * write carries the node's sealed mark (writeMark.ts) so a trigger can tell it apart.
 */

/**
 * The time this write stamps: now, and never before the response's last change, so that reads of
 * "changed since" (Only New Since Last Run) see it even when n8n's clock is behind Formbricks'.
 */
function writeTime(previous?: unknown): string {
	const after = typeof previous === 'string' ? Date.parse(previous) + 1 : Number.NaN;
	return new Date(Number.isNaN(after) ? Date.now() : Math.max(Date.now(), after)).toISOString();
}

/** The node's mark, sealed with the credential's API key: respondents can write variables, never with the key. */
async function mark(ctx: RequestContext, variables: unknown, surveyId: unknown, time: string, itemIndex: number): Promise<IDataObject> {
	const { apiKey } = await ctx.getCredentials('surveyApi', itemIndex);
	return markedVariables(variables, String(apiKey ?? ''), String(surveyId), time);
}

export const formbricksResponseWrites: ResponseWritesCapability = {
	async create(ctx, response, itemIndex) {
		const time = writeTime();
		const { data } = await request<{ data: IDataObject }>(ctx, {
			method: 'POST',
			path: '/api/v2/management/responses',
			body: {
				surveyId: response.surveyId,
				finished: response.finished ?? true,
				data: response.data,
				// `updatedAt` is the mark's time; Formbricks stores both as given.
				createdAt: response.createdAt ?? time,
				updatedAt: time,
				variables: await mark(ctx, {}, response.surveyId, time, itemIndex),
				meta: { source: response.source ?? 'n8n' },
				...(response.language ? { language: response.language } : {}),
				// Formbricks links the response to the contact with this user ID, or to none when there is none.
				...(response.contactUserId ? { userId: response.contactUserId } : {}),
			},
			itemIndex,
		});
		return data;
	},

	async update(ctx, responseId, change, itemIndex) {
		const path = `/api/v2/management/responses/${encodeURIComponent(responseId)}`;
		const { data: current } = await request<{ data: IDataObject }>(ctx, { method: 'GET', path, itemIndex });
		if (current.surveyId !== change.surveyId) {
			throw new NodeOperationError(ctx.getNode(), `Survey: the response ${responseId} belongs to another survey (${String(current.surveyId)})`, {
				itemIndex,
				description: 'Nothing was written. Choose the response\'s survey, whose questions the answers are keyed by.',
			});
		}
		const time = writeTime(current.updatedAt);
		// Formbricks' PUT takes the whole response (ZResponse without id and surveyId) and replaces
		// what it stores, `data` included: what was read goes back with the change applied.
		const { data } = await request<{ data: IDataObject }>(ctx, {
			method: 'PUT',
			path,
			body: {
				createdAt: current.createdAt,
				updatedAt: time,
				finished: change.finished ?? current.finished,
				contactId: current.contactId ?? null,
				endingId: current.endingId ?? null,
				data: { ...((current.data ?? {}) as IDataObject), ...change.data },
				variables: await mark(ctx, current.variables, current.surveyId, time, itemIndex),
				ttc: current.ttc ?? {},
				meta: current.meta ?? {},
				contactAttributes: current.contactAttributes ?? null,
				singleUseId: current.singleUseId ?? null,
				// The spec types `language` as a string; "default" is Formbricks' word for the survey's own language.
				language: change.language ?? current.language ?? 'default',
				displayId: current.displayId ?? null,
			},
			itemIndex,
		});
		return data;
	},
};
