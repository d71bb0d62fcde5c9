/**
 * Paces the requests of one read when the service rate-limits it: the request gives up its
 * place while its rate budget is paused (until the window reopens), and takes a place again
 * before it is sent again.
 */
export interface RequestPacer {
	rateLimited(): void;
	resume(): Promise<void>;
}

/**
 * Runs tasks with a number in flight that adapts to the service's rate limit: it starts at
 * `maxConcurrency`, halves (down to one) when the service answers 429, once for every round of
 * requests that met the limit, and grows back by one after as many answers without a 429 as
 * are allowed in flight. A rate-limited request is sent again before any new task starts. After
 * a task fails, no further task starts. Results keep the tasks' order.
 */
export async function mapConcurrently<T>(
	tasks: Array<(pacer: RequestPacer) => Promise<T>>,
	maxConcurrency: number,
): Promise<T[]> {
	const max = Math.max(1, Math.floor(maxConcurrency));
	let limit = max;
	let inFlight = 0;
	let successesInARow = 0;
	/** Rises each time the limit is lowered; a 429 to a request sent before that has been answered already. */
	let round = 0;
	let failed = false;
	/** Waiting for a place; each is given the round in which it got one. */
	const queue: Array<(placedInRound: number) => void> = [];

	const wake = () => {
		while (queue.length > 0 && inFlight < limit) {
			inFlight++;
			queue.shift()?.(round);
		}
	};
	/** Resolves with the round in which the place was given: a 429 to what is sent then belongs to that round. */
	const takePlace = async (first: boolean): Promise<number> => {
		if (queue.length === 0 && inFlight < limit) {
			inFlight++;
			return round;
		}
		return await new Promise<number>((resolve) => (first ? queue.unshift(resolve) : queue.push(resolve)));
	};
	const leave = () => {
		inFlight--;
		wake();
	};

	const results = new Array<T>(tasks.length);
	const run = async (index: number) => {
		let sentInRound = await takePlace(false);
		if (failed) {
			leave();
			return;
		}
		let holdsPlace = true;
		const pacer: RequestPacer = {
			rateLimited: () => {
				successesInARow = 0;
				if (sentInRound === round) {
					round++;
					limit = Math.max(1, Math.ceil(Math.min(limit, inFlight) / 2));
				}
				holdsPlace = false;
				leave();
			},
			resume: async () => {
				sentInRound = await takePlace(true);
				holdsPlace = true;
			},
		};
		let answered = false;
		try {
			results[index] = await tasks[index](pacer);
			answered = true;
		} finally {
			if (!answered) failed = true;
			if (holdsPlace) leave();
		}
		if (++successesInARow >= limit && limit < max) {
			successesInARow = 0;
			limit++;
			wake();
		}
	};
	await Promise.all(tasks.map(async (_, index) => await run(index)));
	return results;
}
