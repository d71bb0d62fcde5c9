import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ServiceAnswer, ServiceRequest } from './request';

/**
 * Deleting or cancelling what is already gone. An erasure that is run again (a retried
 * execution, a redelivered request, a workflow that failed after the first delete) meets
 * records it already removed: the service's "not found" or "already cancelled". The user
 * chooses whether that fails the item or counts as done, reported as `alreadyGone: true`.
 *
 * The decision takes only what the service answered (is it gone? was the request sent again?),
 * so a service adapter that maps its own errors can reuse it.
 */
export type IfAlreadyGone = 'fail' | 'succeed';

export function ifAlreadyGoneParameter(
	show: IDisplayOptions['show'],
	gone: 'deleted' | 'cancelled',
): INodeProperties {
	return {
		displayName: gone === 'deleted' ? 'If Already Deleted' : 'If Already Cancelled',
		name: 'ifAlreadyGone',
		type: 'options',
		default: 'fail',
		description: `What to do when it is ${gone} already, e.g. when an erasure runs a second time`,
		options: [
			{
				name: 'Fail',
				value: 'fail',
				description:
					gone === 'deleted'
						? 'Stop with the service’s "not found", as for an ID that never existed'
						: 'Stop with an error saying it is cancelled already',
			},
			{
				name: 'Succeed',
				value: 'succeed',
				description:
					'Output it with alreadyGone set to true, so that running the step again succeeds',
			},
		],
		displayOptions: { show },
	};
}

export function readIfAlreadyGone(ctx: IExecuteFunctions, itemIndex: number): IfAlreadyGone {
	return ctx.getNodeParameter('ifAlreadyGone', itemIndex, 'fail') === 'succeed'
		? 'succeed'
		: 'fail';
}

/**
 * Settles an answer saying the thing is already gone: returns when that counts as done, or
 * throws `refusal`. A request that had to be sent again (its first attempt ended without an
 * answer) and then finds the thing gone counts as done whatever the choice: the first attempt
 * most likely removed it, and failing would report a removal that happened as one that did not.
 */
export function acceptAlreadyGone(
	answer: { repeated: boolean },
	choice: IfAlreadyGone,
	refusal: Error,
): void {
	if (choice === 'succeed' || answer.repeated) return;
	throw refusal;
}

/**
 * Sends a delete whose "not found" (`goneStatuses`) means the thing is already gone, and
 * settles that answer by the user's choice. `send` is the service's transport.
 */
export async function deleteUnlessGone<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	send: (request: ServiceRequest) => Promise<ServiceAnswer<T>>,
	request: ServiceRequest,
	goneStatuses: number[] = [404],
): Promise<{ body?: T; alreadyGone: boolean }> {
	const answer = await send({ ...request, acceptStatuses: goneStatuses, itemIndex });
	const alreadyGone = settleGone(ctx, itemIndex, answer);
	return alreadyGone ? { alreadyGone } : { body: answer.body, alreadyGone };
}

/**
 * Settles a delete's answer whose `error` says the thing is already gone (an adapter's delete
 * sends it with its API's "not found" accepted): whether it was, or throws by the user's choice.
 */
export function settleGone(
	ctx: IExecuteFunctions,
	itemIndex: number,
	answer: { repeated: boolean; error?: Error },
): boolean {
	if (!answer.error) return false;
	acceptAlreadyGone(answer, readIfAlreadyGone(ctx, itemIndex), answer.error);
	return true;
}
