import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bookmarkApiTest } from './credentialTest';
import { listLocator } from './resources/bookmark/getMany';
import { searchLists } from './resources/list';
import type { BookmarkFilters } from './transport';
import { fetchBookmarks } from './transport';

/**
 * Where the last poll stopped: the newest creation time seen, and the ids created at that
 * very time (several records can share a timestamp, and a later one may still arrive).
 */
export interface PollState {
	since?: string;
	idsAtSince?: string[];
}

export function isNewRecord(record: IDataObject, state: PollState): boolean {
	const createdAt = String(record.createdAt);
	if (!state.since || createdAt > state.since) return true;
	return createdAt === state.since && !(state.idsAtSince ?? []).includes(String(record.id));
}

export function advanceState(state: PollState, newRecords: IDataObject[]): PollState {
	let { since, idsAtSince = [] } = state;
	for (const record of newRecords) {
		const createdAt = String(record.createdAt);
		if (!since || createdAt > since) {
			since = createdAt;
			idsAtSince = [String(record.id)];
		} else if (createdAt === since) {
			idsAtSince = [...idsAtSince, String(record.id)];
		}
	}
	return { since, idsAtSince };
}

export class BookmarksTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bookmarks Trigger',
		name: 'bookmarksTrigger',
		icon: { light: 'file:bookmarks.svg', dark: 'file:bookmarks.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'New Bookmark',
		description: 'Starts the workflow when new bookmark records are created',
		defaults: { name: 'Bookmarks Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'bookmarkApi', required: true, testedBy: 'bookmarkApiTest' }],
		properties: [
			{
				displayName:
					'The bookmark service sends no events, so this trigger checks for new records on the schedule below. On its first activation it starts from now: records created before are not emitted.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					{ ...listLocator },
					{
						displayName: 'Tag',
						name: 'tag',
						type: 'string',
						default: '',
						description: 'Only records with this tag',
					},
				],
			},
		],
	};

	methods = { credentialTest: { bookmarkApiTest }, listSearch: { searchLists } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const filterParameters = this.getNodeParameter('filters', {}) as IDataObject;
		const list = filterParameters.list as { value?: string } | undefined;
		const filters: BookmarkFilters = {
			tags: String(filterParameters.tag ?? '').trim() || undefined,
			listId: list?.value?.trim() || undefined,
		};

		if (this.getMode() === 'manual') {
			const latest = await fetchBookmarks(this, filters, 1);
			return latest.length ? [this.helpers.returnJsonArray(latest)] : null;
		}

		const staticData = this.getWorkflowStaticData('node') as PollState;
		if (!staticData.since) {
			// First activation: remember where "now" is and emit nothing.
			const [newest] = await fetchBookmarks(this, filters, 1);
			staticData.since = newest ? String(newest.createdAt) : new Date().toISOString();
			staticData.idsAtSince = newest ? [String(newest.id)] : [];
			return null;
		}

		const state: PollState = { since: staticData.since, idsAtSince: staticData.idsAtSince ?? [] };
		const fetched = await fetchBookmarks(this, filters, undefined, undefined, (page) =>
			page.some((record) => String(record.createdAt) < state.since!),
		);
		const fresh = fetched.filter((record) => isNewRecord(record, state)).reverse();
		if (fresh.length === 0) return null;
		Object.assign(staticData, advanceState(state, fresh));
		return [this.helpers.returnJsonArray(fresh)];
	}
}
