import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bookmarkApiTest } from './credentialTest';
import { bookmarksTriggerPersonalDataOptions, redactBookmarkRecords } from './personalData';
import {
	listIdsOf,
	listNames,
	simplifyBookmark,
	simplifyBookmarks,
	simplifyTriggerParameter,
} from './resources/bookmark/simplify';
import { listFilterLocator, searchLists } from './resources/locators';
import { bookmarkAdapter, type BookmarkFilters } from './adapters';
import { fetchBookmarks } from './transport';
import type { WatchMode } from './watch';
import {
	LOOKBACK_MS,
	isWatched,
	reachesBehind,
	readState,
	sortField,
	startState,
	stateToStore,
	takeFresh,
	timeOf,
} from './watch';
import type { RequestContext } from '../shared/request';
import { CHANGE_EVENTS, type ChangeEvent } from './changes';
import { pollChanges } from './watchChanges';
import { docsSection } from '../shared/docs';
import { BOOKMARKS_TRIGGER_DESCRIPTION } from '../shared/nodeDescriptions';
import { givesOneShape, NODE_VERSIONS, ONE_SHAPE_VERSION } from '../shared/simplify';

const options = (ctx: IPollFunctions) => ctx.getNodeParameter('options', {}) as IDataObject;

/** Whether records are emitted in the one shape of the Bookmarks node (version 2, Simplify on). */
const wantsSimplified = (ctx: IPollFunctions) =>
	givesOneShape(ctx) && (ctx.getNodeParameter('simplify', true) as boolean);

export class BookmarksTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bookmarks Trigger',
		name: 'bookmarksTrigger',
		icon: { light: 'file:bookmarks.svg', dark: 'file:bookmarks.dark.svg' },
		group: ['trigger'],
		version: NODE_VERSIONS,
		defaultVersion: ONE_SHAPE_VERSION,
		subtitle:
			'={{$parameter["watch"] === "changes" ? ($parameter["changeEvents"] || []).join(", ") : $parameter["watch"] === "changedRecords" ? "Changed Bookmark" : "New Bookmark"}}',
		description: BOOKMARKS_TRIGGER_DESCRIPTION,
		documentationUrl: docsSection('bookmarks', 'bookmarks-trigger'),
		defaults: { name: 'Bookmarks Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'bookmarkApi', required: true, testedBy: 'bookmarkApiTest' }],
		properties: [
			{
				displayName:
					'The bookmark service sends no events, so this trigger asks it for records at the Poll Times above. On its first activation it starts from now: records created or changed before are not emitted. On Karakeep, which sends webhooks, the Bookmarks Webhook Trigger starts workflows as records change, without polling.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				// "Trigger On" is the name n8n's nodes panel reads a trigger's events from.
				displayName: 'Trigger On',
				name: 'watch',
				type: 'options',
				default: 'newRecords',
				description: 'Which records to watch',
				options: [
					{
						name: 'Bookmark Changes',
						value: 'changes',
						action: 'On bookmark archived, favourited, tagged, listed or highlighted',
						description:
							'Each change of a record as an event of its own, chosen under Events: archived, tags added (by the AI or a person), added to a list, highlighted… (Karakeep)',
					},
					{
						name: 'Changed Records',
						value: 'changedRecords',
						action: 'On bookmark changed',
						description:
							'Records changed since the last poll: edited, archived, favourited, tagged, listed (once per change)',
					},
					{
						name: 'New Records',
						value: 'newRecords',
						action: 'On new bookmark',
						description: 'Records created since the last poll (once each)',
					},
				],
			},
			{
				displayName:
					'Each poll reads the newest 100 records and 400 more in turn (a library of 10,000 is compared whole every 20 polls), the lists and the new highlights. The first poll learns the library: it emits nothing.',
				name: 'changesNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { watch: ['changes'] } },
			},
			{
				displayName: 'Events',
				name: 'changeEvents',
				type: 'multiOptions',
				required: true,
				default: [],
				description: 'The changes that start the workflow, each change one item',
				options: CHANGE_EVENTS,
				displayOptions: { show: { watch: ['changes'] } },
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				displayOptions: { hide: { watch: ['changes'] } },
				options: [
					{ ...listFilterLocator },
					{
						displayName: 'Tag',
						name: 'tag',
						type: 'string',
						default: '',
						description: 'Only records with this tag',
					},
				],
			},
			simplifyTriggerParameter,
			bookmarksTriggerPersonalDataOptions,
		],
	};

	methods = { credentialTest: { bookmarkApiTest }, listSearch: { searchLists } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if ((this.getNodeParameter('watch', 'newRecords') as string) === 'changes') return await pollChangeEvents(this);
		const watch = this.getNodeParameter('watch', 'newRecords') as WatchMode;
		const filterParameters = this.getNodeParameter('filters', {}) as IDataObject;
		const list = filterParameters.list as { value?: string } | undefined;
		const filters: BookmarkFilters = {
			tags: String(filterParameters.tag ?? '').trim() || undefined,
			listId: list?.value?.trim() || undefined,
			sortBy: sortField(watch),
		};

		if (this.getMode() === 'manual') {
			const found = (await fetchBookmarks(this, filters, 20)).find((record) =>
				isWatched(record, watch),
			);
			if (!found) return null;
			const [latest] = await (await bookmarkAdapter(this)).withListIds(this, [found]);
			const output = wantsSimplified(this)
				? await simplifyBookmarks(this as RequestContext, [latest])
				: [latest];
			return [this.helpers.returnJsonArray(await redactBookmarkRecords(options(this), output))];
		}

		const staticData = this.getWorkflowStaticData('node');
		const known = readState(staticData, watch);
		if (!known) {
			// First activation (or a new Trigger On): what exists now is not emitted.
			const field = sortField(watch);
			let floor: number | undefined;
			const readAt = Date.now();
			const existing = await fetchBookmarks(this, filters, undefined, undefined, (page) => {
				for (const record of page) {
					const time = timeOf(record, field);
					if (time === undefined) continue;
					floor ??= Math.min(time, Date.now()) - LOOKBACK_MS;
					if (time < floor) return true;
				}
				return false;
			});
			if (!readState(staticData, watch)) {
				Object.assign(staticData, stateToStore(startState(watch, existing, Date.now(), readAt)));
			}
			return null;
		}

		const readAt = Date.now();
		const records = await fetchBookmarks(this, filters, undefined, undefined, (page) =>
			reachesBehind(page, known),
		);
		// The records' lists and the lists' names are read before the claim: a failed read must not
		// lose the records.
		const simplify = wantsSimplified(this);
		const { fresh: candidates } = takeFresh(known, records, Date.now(), readAt);
		const listed = new Map(
			(await (await bookmarkAdapter(this)).withListIds(this, candidates)).map((record) => [record.id, record]),
		);
		const names =
			simplify && [...listed.values()].some((record) => listIdsOf(record).length > 0)
				? await listNames(this as RequestContext)
				: new Map<string, string>();
		// From here to the store, no await: an overlapping poll sees this one's claim.
		const current = readState(staticData, watch) ?? known;
		const { fresh: claimed, state } = takeFresh(current, records, Date.now(), readAt);
		Object.assign(staticData, stateToStore(state));
		if (!claimed.length) return null;
		const fresh = claimed.map((record) => listed.get(record.id) ?? record);
		const output = simplify ? fresh.map((record) => simplifyBookmark(record, names)) : fresh;
		return [this.helpers.returnJsonArray(await redactBookmarkRecords(options(this), output))];
	}
}

/**
 * Bookmark Changes: one item per change, the record in the trigger's usual shape with `event` and
 * `changes`. Fetch Test Event compares without storing what it read.
 */
async function pollChangeEvents(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const events = new Set(ctx.getNodeParameter('changeEvents', []) as ChangeEvent[]);
	if (events.size === 0) return null;
	const manual = ctx.getMode() === 'manual';
	const context = manual ? withStaticCopy(ctx) : ctx;
	const { changes } = await pollChanges(context, events);
	if (!changes.length) return null;
	const adapter = await bookmarkAdapter(ctx);
	const listed = new Map(
		(await adapter.withListIds(ctx, changes.map((change) => change.record))).map((record) => [String(record.id), record]),
	);
	const simplify = wantsSimplified(ctx);
	const names = simplify ? await listNames(ctx as RequestContext) : new Map<string, string>();
	const output = changes.map((change) => {
		const record = listed.get(change.recordId) ?? change.record;
		const shaped = simplify ? simplifyBookmark(record, names) : record;
		return { ...shaped, event: change.event, changes: change.changes };
	});
	return [ctx.helpers.returnJsonArray(await redactBookmarkRecords(options(ctx), output))];
}

/** The context with a copy of the node's static data: Fetch Test Event stores nothing. */
function withStaticCopy(ctx: IPollFunctions): IPollFunctions {
	const copy = structuredClone(ctx.getWorkflowStaticData('node'));
	return new Proxy(ctx, {
		get: (target, key) => (key === 'getWorkflowStaticData' ? () => copy : Reflect.get(target, key, target)),
	});
}
