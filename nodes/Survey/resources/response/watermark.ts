import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ResponseDateFilter } from '../../transport';

/**
 * "Only New Since Last Run". A mark is the newest `updatedAt` read and the ids read at exactly
 * that time (the service's bounds are inclusive, so they come again and are dropped then).
 *
 * Why two marks: n8n saves a workflow's static data at the end of every production execution
 * in which it changed, whether the execution succeeded or failed (execution-lifecycle-hooks:
 * `workflowExecuteAfter` → `saveStaticDataById`, for status success and error alike), and no
 * node code runs after the last node that could tell the outcome. A mark moved during the read
 * would therefore also be kept when a later node fails, and the responses of that run would
 * never be read again. So the read records a *pending* mark, tagged with its execution, and
 * reads from the *committed* one; "Mark as Read" at the end of the workflow commits it. A run
 * that fails before that step leaves the committed mark where it was: the next run reads those
 * responses again (at least once, never skipped). Manual runs in the editor keep no static data.
 */
interface Mark {
	updatedAt: string;
	ids: string[];
}

interface SurveyMarks {
	committed?: Mark;
	pending?: Mark & { executionId: string };
}

const STATIC_KEY = 'surveyResponseMarks';

function marksOf(ctx: IExecuteFunctions): Record<string, SurveyMarks> {
	const stored = (ctx.getWorkflowStaticData('global') as IDataObject)[STATIC_KEY];
	return stored !== null && typeof stored === 'object'
		? { ...(stored as Record<string, SurveyMarks>) }
		: {};
}

/**
 * n8n saves static data only when its observed object reports a change, and objects added
 * during a run are not observed: the whole entry is therefore set anew at the top level.
 */
function saveMarks(ctx: IExecuteFunctions, marks: Record<string, SurveyMarks>): void {
	(ctx.getWorkflowStaticData('global') as IDataObject)[STATIC_KEY] =
		marks as unknown as IDataObject;
}

/** One mark per node and survey, so two readers in one workflow keep their own. */
const markKey = (ctx: IExecuteFunctions, surveyId: string) =>
	`${ctx.getNode().name}\u0000${surveyId}`;

/** The read since the committed mark, and a filter dropping what was read at the mark itself. */
export function newResponsesQuery(
	ctx: IExecuteFunctions,
	surveyId: string,
): { dateFilter?: ResponseDateFilter; keep: (responses: IDataObject[]) => IDataObject[] } {
	const committed = marksOf(ctx)[markKey(ctx, surveyId)]?.committed;
	if (!committed) return { keep: (responses) => responses };
	const seen = new Set(committed.ids);
	const markTime = Date.parse(committed.updatedAt);
	return {
		dateFilter: { startDate: committed.updatedAt, filterDateField: 'updatedAt' },
		keep: (responses) =>
			responses.filter(
				(response) =>
					!(Date.parse(String(response.updatedAt)) === markTime && seen.has(String(response.id))),
			),
	};
}

/** Records the pending mark after a read: the newest update among what was read, or the committed mark. */
export function recordWatermark(
	ctx: IExecuteFunctions,
	surveyId: string,
	responses: IDataObject[],
): void {
	const marks = marksOf(ctx);
	const key = markKey(ctx, surveyId);
	const entry = marks[key] ?? {};
	let newest = entry.committed ? Date.parse(entry.committed.updatedAt) : -Infinity;
	let ids = entry.committed?.ids ?? [];
	for (const response of responses) {
		const time = Date.parse(String(response.updatedAt));
		if (Number.isNaN(time)) continue;
		if (time > newest) {
			newest = time;
			ids = [String(response.id)];
		} else if (time === newest && !ids.includes(String(response.id))) {
			ids = [...ids, String(response.id)];
		}
	}
	if (newest === -Infinity) return;
	marks[key] = {
		...entry,
		pending: { updatedAt: new Date(newest).toISOString(), ids, executionId: ctx.getExecutionId() },
	};
	saveMarks(ctx, marks);
}

/** Commits the pending marks this execution recorded under the keys `wanted` accepts. Returns how many. */
function commitPending(ctx: IExecuteFunctions, wanted: (key: string) => boolean): number {
	const marks = marksOf(ctx);
	const executionId = ctx.getExecutionId();
	let committed = 0;
	for (const [key, entry] of Object.entries(marks)) {
		if (!entry.pending || entry.pending.executionId !== executionId || !wanted(key)) continue;
		marks[key] = { committed: { updatedAt: entry.pending.updatedAt, ids: entry.pending.ids } };
		committed++;
	}
	if (committed > 0) saveMarks(ctx, marks);
	return committed;
}

/** "Advance Mark: Right Away": commits the mark this node just recorded for this survey, no other. */
export function commitOwnMark(ctx: IExecuteFunctions, surveyId: string): number {
	const own = markKey(ctx, surveyId);
	return commitPending(ctx, (key) => key === own);
}

/** The node a mark key belongs to. */
const readerOf = (key: string) => key.slice(0, key.indexOf('\u0000'));

/**
 * Mark as Read: commits the marks recorded in this execution by the Survey nodes that come
 * before this step in the workflow (its parent nodes, at any distance), every survey they read.
 * A reader on another branch keeps its mark pending for its own Mark as Read, so a branch that
 * fails does not have its responses marked as read by another branch's success. n8n versions
 * that cannot tell a node's parents (before `getParentNodes`) commit every mark of the execution.
 */
export function commitMarksBefore(ctx: IExecuteFunctions): number {
	const withParents = ctx as Partial<Pick<IExecuteFunctions, 'getParentNodes'>>;
	if (typeof withParents.getParentNodes !== 'function') return commitPending(ctx, () => true);
	const readers = new Set(withParents.getParentNodes(ctx.getNode().name).map((parent) => parent.name));
	return commitPending(ctx, (key) => readers.has(readerOf(key)));
}
