import { computeMetrics } from '../../nodes/Survey/resources/survey/metrics';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-11-22T12:00:00.000Z');
const at = (daysAgo: number, plusSeconds = 0) => new Date(now - daysAgo * DAY + plusSeconds * 1000).toISOString();
const response = (daysAgo: number, finished: boolean, secondsToFinish = 0) => ({
	createdAt: at(daysAgo),
	updatedAt: at(daysAgo, secondsToFinish),
	finished,
});

describe('computeMetrics', () => {
	it('counts, rates, times and recent activity', () => {
		const metrics = computeMetrics(
			[response(40, true, 600), response(20, true, 300), response(5, false, 60), response(1, true, 120)],
			now,
		);
		expect(metrics).toEqual({
			responseCount: 4,
			finishedCount: 3,
			unfinishedCount: 1,
			completionRate: 0.75,
			firstResponseAt: at(40),
			lastResponseAt: at(1),
			responsesLast7Days: 2,
			responsesLast30Days: 3,
			medianSecondsToFinish: 300,
			skippedUnreadableDates: 0,
		});
	});

	it('averages the two middle durations for an even count', () => {
		expect(computeMetrics([response(1, true, 100), response(2, true, 200)], now).medianSecondsToFinish).toBe(150);
	});

	it('has nulls, not zeros, where nothing can be said', () => {
		expect(computeMetrics([], now)).toMatchObject({
			responseCount: 0,
			completionRate: null,
			firstResponseAt: null,
			lastResponseAt: null,
			medianSecondsToFinish: null,
		});
	});
});
