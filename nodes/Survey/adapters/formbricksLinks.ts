import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { licensedRequest, request, v1 } from './formbricksRequest';
import type { PersonalLink, PersonalLinksCapability, SingleUseLinksCapability } from './types';

/*
 * Formbricks' survey links (b66c1dd). A contact's personal link, `…/c/<token>`, opens the survey as
 * that contact (`GET /api/v2/management/surveys/{surveyId}/contact-links/contacts/{contactId}`, an
 * Enterprise feature; the spec writes the path with a trailing slash, which Next.js redirects
 * away); a segment's, one page at a time (`…/contact-links/segments/{segmentId}`, ≤ 250). Single-use
 * links, `…/s/<surveyId>?suId=…`, each take one anonymous response
 * (`GET /api/v1/management/surveys/{surveyId}/singleUseIds`, ≤ 5,000, a Write key).
 */

const id = (value: string) => encodeURIComponent(value);

/** Formbricks' refusals of a contact's link, and what to do about each. */
const CONTACT_LINK_HINTS = {
	400: 'Personal links exist for link surveys only (Formbricks: the survey\'s Settings → Survey Type → Link survey), and a contact who has answered the survey already gets none: their response is under Responses',
	404: 'The survey or the contact is not in the workspace of this API key',
};

export const formbricksPersonalLinks: PersonalLinksCapability = {
	segmentPageSize: 250,

	async forContact(ctx, { surveyId, contactId, expirationDays }, itemIndex) {
		const { data } = await licensedRequest<{ data: PersonalLink }>(ctx, {
			method: 'GET',
			path: `/api/v2/management/surveys/${id(surveyId)}/contact-links/contacts/${id(contactId)}`,
			qs: expirationDays === undefined ? {} : { expirationDays },
			itemIndex,
			errorHints: CONTACT_LINK_HINTS,
		});
		return data;
	},

	async forSegment(ctx, { surveyId, segmentId, expirationDays, attributeKeys, skip, limit }, itemIndex) {
		// Formbricks answers an unknown survey here with a 500 and a survey that is not a link survey in
		// progress with a bare 403, which also means "no licence": the survey is read first to tell.
		if (skip === 0) {
			const survey = await v1.getSurvey(ctx, surveyId, itemIndex);
			if (survey.type !== 'link' || survey.status !== 'inProgress') {
				throw new NodeOperationError(
					ctx.getNode(),
					`The survey "${String(survey.name)}" is ${survey.type === 'link' ? 'not in progress' : 'not a link survey'}: Formbricks gives a segment personal links to link surveys in progress only`,
					{ itemIndex, description: 'Publish the survey as a link survey in Formbricks, or choose another survey.' },
				);
			}
		}
		const qs: IDataObject = { limit, skip };
		if (expirationDays !== undefined) qs.expirationDays = expirationDays;
		if (attributeKeys.length > 0) qs.attributeKeys = attributeKeys.join(',');
		const { data, meta } = await licensedRequest<{ data: IDataObject[]; meta?: IDataObject }>(ctx, {
			method: 'GET',
			path: `/api/v2/management/surveys/${id(surveyId)}/contact-links/segments/${id(segmentId)}`,
			qs,
			itemIndex,
			errorHints: { 404: 'No segment with this ID in the workspace (Formbricks: Contacts → Segments)' },
		});
		return {
			links: data.map((link) => ({
				contactId: String(link.contactId),
				surveyUrl: String(link.surveyUrl),
				expiresAt: typeof link.expiresAt === 'string' ? link.expiresAt : null,
				...(link.attributes ? { attributes: link.attributes as Record<string, string> } : {}),
			})),
			total: Number(meta?.total ?? skip + data.length),
		};
	},
};

export const formbricksSingleUseLinks: SingleUseLinksCapability = {
	maxCount: 5_000,

	async generate(ctx, surveyId, count, itemIndex) {
		const { data } = await request<{ data: string[] }>(ctx, {
			method: 'GET',
			path: `/api/v1/management/surveys/${id(surveyId)}/singleUseIds`,
			qs: { limit: count },
			itemIndex,
			errorHints: {
				400: 'Single-use links are for link surveys whose single-use links are on (Formbricks: the survey\'s Share → Anonymous links → Single-use links)',
			},
		});
		return data;
	},
};
