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
	/** Responses left out of every figure above because their createdAt is not a readable time. */
	skippedUnreadableDates: number;
}

/**
 * Durations to finish, counted per rounded value: whole seconds under a day, whole minutes
 * under 30 days, whole hours beyond. Its size depends on how spread the durations are, not
 * on how many there are, and the median it gives is exact at that resolution.
 */
class DurationHistogram {
	private readonly counts = new Map<number, number>();
	private total = 0;

	add(seconds: number): void {
		const unit = seconds < 86_400 ? 1 : seconds < 30 * 86_400 ? 60 : 3_600;
		const value = Math.round(seconds / unit) * unit;
		this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
		this.total++;
	}

	median(): number | null {
		if (this.total === 0) return null;
		// The two middle ranks (equal for an odd count), 0-based.
		const low = Math.floor((this.total - 1) / 2);
		const high = Math.floor(this.total / 2);
		let seen = 0;
		let lowValue: number | undefined;
		for (const value of [...this.counts.keys()].sort((a, b) => a - b)) {
			seen += this.counts.get(value)!;
			if (lowValue === undefined && seen > low) lowValue = value;
			if (seen > high) return (lowValue! + value) / 2;
		}
		return lowValue ?? null;
	}
}

/** Metrics of one survey, fed one response at a time: one pass, memory independent of the count. */
export class MetricsAccumulator {
	private responseCount = 0;
	private finishedCount = 0;
	private first = Infinity;
	private last = -Infinity;
	private last7Days = 0;
	private last30Days = 0;
	private skipped = 0;
	private durations = new DurationHistogram();

	constructor(private readonly now = Date.now()) {}

	add(response: IDataObject): void {
		const created = Date.parse(String(response.createdAt));
		if (Number.isNaN(created)) {
			this.skipped++;
			return;
		}
		this.responseCount++;
		if (created < this.first) this.first = created;
		if (created > this.last) this.last = created;
		if (created >= this.now - 7 * DAY_MS) this.last7Days++;
		if (created >= this.now - 30 * DAY_MS) this.last30Days++;
		if (response.finished === true) {
			this.finishedCount++;
			const seconds = (Date.parse(String(response.updatedAt)) - created) / 1000;
			if (Number.isFinite(seconds)) this.durations.add(seconds);
		}
	}

	result(): SurveyMetrics {
		const count = this.responseCount;
		return {
			responseCount: count,
			finishedCount: this.finishedCount,
			unfinishedCount: count - this.finishedCount,
			completionRate: count ? Math.round((this.finishedCount / count) * 10_000) / 10_000 : null,
			firstResponseAt: count ? new Date(this.first).toISOString() : null,
			lastResponseAt: count ? new Date(this.last).toISOString() : null,
			responsesLast7Days: this.last7Days,
			responsesLast30Days: this.last30Days,
			medianSecondsToFinish: this.durations.median(),
			skippedUnreadableDates: this.skipped,
		};
	}
}

/** Metrics of one survey from a list of its responses. */
export function computeMetrics(responses: Iterable<IDataObject>, now = Date.now()): SurveyMetrics {
	const metrics = new MetricsAccumulator(now);
	for (const response of responses) metrics.add(response);
	return metrics.result();
}
