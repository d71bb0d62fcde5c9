import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { BinaryItem } from '../../shared/execute';
import { withBinary } from '../../shared/execute';
import { runsAsTool } from '../../shared/privacy';
import type { ServiceAnswer } from '../../shared/request';

export const headerOf = (headers: Record<string, string | string[] | undefined>, name: string) => {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
};

/** The type a download's answer declares, without its parameters. */
export const mimeTypeOf = (answer: ServiceAnswer<unknown>) =>
	(headerOf(answer.headers, 'content-type') ?? 'application/octet-stream').split(';')[0].trim();

/**
 * A downloaded file as n8n binary data, streamed into n8n's binary data store, beside `metadata`. As
 * an agent's tool (the answer of a HEAD request), what the file is, not its bytes: an agent's context
 * cannot use them.
 */
export async function downloadedFile(
	ctx: IExecuteFunctions,
	answer: ServiceAnswer<unknown>,
	metadata: IDataObject & { fileName: string; mimeType: string },
	binaryPropertyName: string,
): Promise<IDataObject | BinaryItem> {
	const declaredSize = Number(headerOf(answer.headers, 'content-length'));
	const fileSize = Number.isInteger(declaredSize) ? declaredSize : null;
	if (runsAsTool(ctx)) return { ...metadata, fileSize };
	const binary = await ctx.helpers.prepareBinaryData(
		answer.body as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
		metadata.fileName,
		metadata.mimeType,
	);
	return withBinary({ ...metadata, fileSize: binary.bytes ?? fileSize }, { [binaryPropertyName]: binary });
}
