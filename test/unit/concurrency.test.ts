import { sleep } from 'n8n-workflow';

import { mapConcurrently } from '../../nodes/Survey/transport';

describe('mapConcurrently', () => {
	it('keeps the tasks’ order and never runs more than the bound at once', async () => {
		let running = 0;
		let peak = 0;
		const tasks = Array.from({ length: 20 }, (_, index) => async () => {
			running++;
			peak = Math.max(peak, running);
			await sleep((20 - index) % 7);
			running--;
			return index;
		});
		expect(await mapConcurrently(tasks, 4)).toEqual(Array.from({ length: 20 }, (_, index) => index));
		expect(peak).toBe(4);
	});

	it('fails when a task fails', async () => {
		await expect(mapConcurrently([async () => 1, async () => Promise.reject(new Error('boom'))], 2)).rejects.toThrow(
			'boom',
		);
	});
});
