import { createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/*
 * Where Response → Create and Update mark a response as theirs: variables Formbricks keeps with the
 * response (`variables`, a JSON column; its pages and e-mails show only the survey's own variables)
 * and sends in every webhook. `n8nWrittenAt` holds the `updatedAt` the node wrote: the response is
 * the node's as long as it still has that `updatedAt` (a respondent's later change moves it on).
 *
 * A respondent can write variables too: Formbricks' client API takes `variables` on create and on
 * every update until the response is finished (ZResponseInput, ZResponseUpdateInput in
 * packages/types/responses.ts; apps/web/app/api/v1/client/[workspaceId]/responses/, merged into the
 * stored ones by updateResponse in apps/web/lib/response/service.ts), though not `updatedAt`
 * (createResponse drops it). A time alone could be forged by guessing the server's clock to the
 * millisecond, so `n8nWriteSeal` seals it with the credential's API key, which respondents never see.
 */

export const N8N_WRITE_MARK = 'n8nWrittenAt';
export const N8N_WRITE_SEAL = 'n8nWriteSeal';

/** What a delivered response carries of the node's mark, for the trigger to check with its key. */
export interface WriteMark {
	surveyId: string;
	time: string;
	seal: string;
}

function sealOf(apiKey: string, surveyId: string, time: string): Buffer {
	return createHmac('sha256', apiKey).update(`n8n-survey-write\u0000${surveyId}\u0000${time}`).digest();
}

/** The variables a write stores: those the response had, with the node's mark and its seal. */
export function markedVariables(variables: unknown, apiKey: string, surveyId: string, time: string): IDataObject {
	return {
		...(variables !== null && typeof variables === 'object' && !Array.isArray(variables) ? (variables as IDataObject) : {}),
		[N8N_WRITE_MARK]: time,
		[N8N_WRITE_SEAL]: sealOf(apiKey, surveyId, time).toString('base64url'),
	};
}

/** The node's mark of a response as Formbricks sends it, when it still stands (its time is the response's `updatedAt`). */
export function writeMarkOf(response: IDataObject): WriteMark | undefined {
	const variables = response.variables;
	if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) return undefined;
	const { [N8N_WRITE_MARK]: time, [N8N_WRITE_SEAL]: seal } = variables as IDataObject;
	if (typeof time !== 'string' || typeof seal !== 'string' || typeof response.updatedAt !== 'string') return undefined;
	if (typeof response.surveyId !== 'string') return undefined;
	const written = Date.parse(time);
	if (Number.isNaN(written) || written !== Date.parse(response.updatedAt)) return undefined;
	return { surveyId: response.surveyId, time, seal };
}

/** Whether the mark was sealed with this API key: written by a Survey node with the same credential. */
export function sealedWith(mark: WriteMark, apiKey: string): boolean {
	if (apiKey === '') return false;
	const expected = sealOf(apiKey, mark.surveyId, mark.time);
	const given = Buffer.from(mark.seal, 'base64url');
	return given.length === expected.length && timingSafeEqual(given, expected);
}
