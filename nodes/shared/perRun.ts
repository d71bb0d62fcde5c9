/**
 * One value per run of a node and key, e.g. a table every item of a run reads: n8n makes a new
 * context object for every run, so every item of a run shares one read, and the next run reads
 * anew. A failed read is not kept: the next item may try again.
 */
export function perRun<T>(): (ctx: object, key: string, load: () => Promise<T>) => Promise<T> {
	const byRun = new WeakMap<object, Map<string, Promise<T>>>();
	return async (ctx, key, load) => {
		let values = byRun.get(ctx);
		if (!values) byRun.set(ctx, (values = new Map()));
		let value = values.get(key);
		if (!value) {
			value = load();
			const kept = values;
			value.catch(() => kept.delete(key));
			values.set(key, value);
		}
		return await value;
	};
}
