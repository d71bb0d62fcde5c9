import type { IDataObject } from 'n8n-workflow';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SurveyMetrics {
	responseCount: number;
	finishedCount: number;
	unfinishedCount: number;
	/** Finished responses over all responses, 0 to 1; null without responses. */
	completionRate: number | null;
	firstResponseAt: string | null;
	lastResponseAt: string | null;
	responsesLast7Days: number;
	responsesLast30Days: number;
	/** Median of updatedAt − createdAt over finished responses, in seconds. */
	medianSecondsToFinish: number | null;
}

function median(values: number[]): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Metrics of one survey from all of its responses. */
export function computeMetrics(responses: IDataObject[], now = Date.now()): SurveyMetrics {
	const created = responses.map((response) => Date.parse(String(response.createdAt)));
	const finished = responses.filter((response) => response.finished === true);
	const durations = finished.map(
		(response) => (Date.parse(String(response.updatedAt)) - Date.parse(String(response.createdAt))) / 1000,
	);
	const since = (days: number) => created.filter((time) => time >= now - days * DAY_MS).length;
	const first = created.length ? new Date(Math.min(...created)).toISOString() : null;
	const last = created.length ? new Date(Math.max(...created)).toISOString() : null;
	return {
		responseCount: responses.length,
		finishedCount: finished.length,
		unfinishedCount: responses.length - finished.length,
		completionRate: responses.length ? Math.round((finished.length / responses.length) * 10_000) / 10_000 : null,
		firstResponseAt: first,
		lastResponseAt: last,
		responsesLast7Days: since(7),
		responsesLast30Days: since(30),
		medianSecondsToFinish: median(durations.filter((seconds) => Number.isFinite(seconds))),
	};
}
