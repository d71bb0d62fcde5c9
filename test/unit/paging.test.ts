import { pageAround, readNumberedPages } from '../../nodes/shared/paging';

/** A small deterministic generator, so a failing case can be run again. */
function random(seed: number) {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return state / 2147483648;
	};
}

describe('reading a numbered list each record exactly once (readNumberedPages)', () => {
	it('places every page after the first a few records before the last one read, with records after it', () => {
		for (const maxPerPage of [20, 37, 100]) {
			for (let anchor = 0; anchor < 2000; anchor++) {
				const { page, perPage } = pageAround(anchor, maxPerPage);
				const start = (page - 1) * perPage;
				expect(perPage).toBeLessThanOrEqual(maxPerPage);
				expect(start).toBeLessThanOrEqual(anchor);
				expect(start + perPage - 1).toBeGreaterThan(anchor);
			}
		}
		// With the service's 100, a page after the first brings at least 50 new records, 78 on average.
		let sum = 0;
		let count = 0;
		for (let anchor = 99; anchor < 20_000; anchor += 7) {
			const { page, perPage } = pageAround(anchor, 100);
			const after = (page - 1) * perPage + perPage - 1 - anchor;
			expect(after).toBeGreaterThanOrEqual(50);
			sum += after;
			count++;
		}
		expect(sum / count).toBeGreaterThan(75);
	});

	it('returns each record present for the whole read exactly once, whatever comes and goes between pages', async () => {
		let placed = 0;
		for (let seed = 1; seed <= 120; seed++) {
			const next = random(seed);
			// Newest first: higher numbers first. Records come (new ones on top, or old ones
			// entering the filter anywhere) and go (leaving the filter) between two pages.
			let list = Array.from(
				{ length: 50 + Math.floor(next() * 250) },
				(_, index) => index * 10,
			).reverse();
			let newest = list[0];
			const initial = new Set(list);
			const left = new Set<number>();
			const fetchPage = async (page: number, perPage: number) => {
				const answer = list.slice((page - 1) * perPage, page * perPage);
				const changes = Math.floor(next() * 8);
				for (let change = 0; change < changes; change++) {
					const roll = next();
					if (roll < 0.4 && list.length > 0) {
						const gone = list.splice(Math.floor(next() * list.length), 1)[0];
						left.add(gone);
					} else if (roll < 0.7) {
						list.unshift((newest += 10));
					} else {
						const entering = Math.floor(next() * newest) * 10 + 5;
						if (!list.includes(entering)) list = [...list, entering].sort((a, b) => b - a);
					}
				}
				return answer.map((id) => ({ id }));
			};
			const records = await readNumberedPages(fetchPage, {
				maxPerPage: 20 + Math.floor(next() * 40),
				idOf: (record) => record.id,
			});
			if (!records) continue;
			placed++;
			const ids = records.map((record) => record.id);
			expect(new Set(ids).size).toBe(ids.length);
			const throughout = [...initial].filter((id) => !left.has(id));
			expect(ids).toEqual(expect.arrayContaining(throughout));
		}
		// Most reads succeed despite the churn; the others gave up rather than return a gap.
		expect(placed).toBeGreaterThan(60);
	});

	it('stops at Limit and reads a list that does not change in as few pages as it can', async () => {
		const list = Array.from({ length: 250 }, (_, index) => ({ id: 250 - index }));
		const requests: Array<[number, number]> = [];
		const fetchPage = async (page: number, perPage: number) => {
			requests.push([page, perPage]);
			return list.slice((page - 1) * perPage, page * perPage);
		};
		expect(
			await readNumberedPages(fetchPage, { maxPerPage: 100, limit: 30, idOf: (r) => r.id }),
		).toEqual(list.slice(0, 30));
		expect(requests).toEqual([[1, 30]]);
		requests.length = 0;
		expect(await readNumberedPages(fetchPage, { maxPerPage: 100, idOf: (r) => r.id })).toEqual(
			list,
		);
		expect(requests).toHaveLength(4);
	});
});
