/**
 * The checks of an upload to Karakeep made before anything is sent (nodes/Bookmarks/resources/asset/upload.ts):
 * Largest File (MB) from an expression must be a number, else the size check would be skipped
 * (a NaN limit lets every file through); the file's kind is named with its article. What Karakeep
 * itself refuses is in test/karakeep/assets.test.ts.
 */
import { Bookmarks } from '../../nodes/Bookmarks/Bookmarks.node';
import { executeContext, inputBinary, type Parameters } from './helpers/context';

const PDF = inputBinary(Buffer.from('%PDF-1.4\n%%EOF\n'), 'a.pdf', 'application/pdf');
const MP4 = inputBinary(Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), Buffer.alloc(16)]), 'clip.mp4', 'video/mp4');

async function refusal(parameters: Parameters, data = PDF): Promise<{ message: string; sent: number }> {
	const { context, requests } = executeContext({
		parameters,
		binaries: [{ data }],
		// Nothing listens there: a request sent would fail otherwise.
		credentials: { bookmarkApi: { api: 'karakeep', baseUrl: 'http://127.0.0.1:9', apiKey: 'key' } },
	});
	const error = await new Bookmarks().execute.call(context).then(
		() => new Error('the node did not fail'),
		(thrown: Error) => thrown,
	);
	return { message: error.message, sent: requests.length };
}

describe('uploads to Karakeep refused before anything is sent', () => {
	it.each([
		['text', 'abc', '"abc"'],
		['zero', 0, '0'],
	])('Largest File (MB) that is not a whole number of at least 1 (%s) is refused, naming the field', async (_, value, shown) => {
		const { message, sent } = await refusal({
			resource: 'bookmark',
			operation: 'createFromFile',
			binaryPropertyName: 'data',
			options: { maxFileMegabytes: value },
		});
		expect(message).toBe(`Largest File (MB): ${shown} is not a whole number of at least 1`);
		expect(sent).toBe(0);
	});

	it('an MP4 video as a record of its own: "an MP4 video", not "a MP4 video"', async () => {
		const { message, sent } = await refusal({ resource: 'bookmark', operation: 'createFromFile', binaryPropertyName: 'data' }, MP4);
		expect(message).toMatch(/^Input Binary Field: the file "clip\.mp4" is an MP4 video\. /);
		expect(sent).toBe(0);
	});
});
