/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Formbricks' own OpenAPI files, as a validator: every request to the Formbricks flavour is
 * checked against them (openapi-backend, i.e. Ajv over the operation's parameters and body), and
 * every 2xx answer it gives against the operation's response schema.
 *
 * The files are Formbricks' `docs/api-reference/openapi.json` (management API v1, OpenAPI 3.0)
 * and `docs/api-v2-reference/openapi.yml` (v2, OpenAPI 3.1, paths relative to `/api/v2`), copied
 * unchanged into the shared `real-services/specs/` folder beside the repository; their git blob
 * ids are checked here, so a different version of either file is refused rather than used.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { parse as parseYaml } from 'yaml';

import { realServicesDirs } from '../../harness/realServices';
import { apiVersion, FormbricksProblem, v1, v2, type ApiVersion } from './errors';

export const SPEC_FILES: Record<ApiVersion, { file: string; blob: string; apiRoot: string }> = {
	v1: {
		file: 'formbricks-v1-openapi.json',
		blob: '33f65c13290a5dc369b1cfa6ab704f2b48e4d99e',
		apiRoot: '/',
	},
	v2: {
		file: 'formbricks-v2-openapi.yml',
		blob: 'f1ffc0ff54f95f69bbe14d7b0a6f6832798d1b28',
		apiRoot: '/api/v2',
	},
};

/**
 * Answers of Formbricks' own source that its spec does not describe: the flavour answers as the
 * source does, and these answers are not held to the spec (the contract tests show they fail it).
 */
export const SPEC_DEVIATIONS: Record<string, string> = {
	'GET /api/v1/management/me':
		'apps/web/app/api/v1/management/me/route.ts adds `workspace: {id, name}` beside `project`; the spec ' +
		'allows no property beyond id, type, createdAt, updatedAt, appSetupCompleted and project.',
	'GET /api/v2/management/responses/{id}':
		'apps/web/modules/api/v2/management/responses/[responseId]/route.ts answers `{data: <response>}` ' +
		'(successResponse); the spec describes the response unwrapped, so `data` is read as its answers.',
	'DELETE /api/v2/management/responses/{id}':
		'The same route answers `{data: <deleted response>}`; the spec describes it unwrapped.',
	'POST /api/v2/management/responses':
		'apps/web/modules/api/v2/management/responses/route.ts answers `{data: <response>}` (createdResponse); the spec ' +
		'describes the response unwrapped, so `data` is read as its answers.',
	'PUT /api/v2/management/responses/{id}':
		'…/responses/[responseId]/route.ts answers `{data: <response>}` (successResponse); the spec describes it unwrapped.',
	'PUT /api/v2/management/contacts/bulk':
		'apps/web/modules/ee/contacts/api/v2/management/contacts/bulk/route.ts answers a partial upload 207 with ' +
		'`data.meta.skippedContacts`; the spec requires `data.skippedContacts`.',
};

/**
 * Routes Formbricks' source serves that neither spec file describes, which the Survey node uses:
 * the flavour checks their ids itself and answers as the source does.
 */
export const UNDOCUMENTED_ROUTES: Array<{ method: string; path: RegExp; source: string }> = [
	{
		method: 'DELETE',
		path: /^\/api\/v1\/management\/contacts\/[^/]+$/,
		source: 'apps/web/modules/ee/contacts/api/v1/management/contacts/[contactId]/route.ts (DELETE); the v1 spec lists GET only',
	},
	// API v3 has no spec file: routesSurveys.ts checks these against their zod schemas (surveySchema.ts).
	{
		method: 'POST',
		path: /^\/api\/v3\/surveys\/[^/]+\/(archive|restore)$/,
		source: 'apps/web/app/api/v3/surveys/[surveyId]/archive/route.ts and restore/route.ts',
	},
	{
		method: 'POST',
		path: /^\/api\/v3\/surveys\/validate$/,
		source: 'apps/web/app/api/v3/surveys/validate/route.ts',
	},
];

/**
 * Parts of a request body the v1 file describes against Formbricks' own source: a request may
 * break the file there, as the source takes it.
 */
export const REQUEST_DEVIATIONS: Array<{ operation: RegExp; field: RegExp; source: string }> = [
	{
		operation: /^(POST|PUT) \/api\/v1\/management\/surveys/,
		field: /^languages\.\d+\.language$/,
		source:
			'The v1 file gives `languages[].language` as a string enum ("en", "de", "pt", "etc.."); the route takes ' +
			'`ZSurveyLanguage` (packages/types/surveys/types.ts), whose `language` is the workspace language object ' +
			'(`ZLanguage`: id, code, alias…), as every survey answer carries it.',
	},
];

export const undocumentedRoute = (method: string, path: string) =>
	UNDOCUMENTED_ROUTES.some((route) => route.method === method.toUpperCase() && route.path.test(path));

/** Where the specs are: FORMBRICKS_SPECS_DIR, or the shared specs (test/harness/realServices.ts). */
export function specsDirectory(): string {
	const candidates = [
		process.env.FORMBRICKS_SPECS_DIR,
		...realServicesDirs().map((dir) => join(dir, 'specs')),
	].filter((candidate): candidate is string => Boolean(candidate));
	const found = candidates.find((candidate) => existsSync(join(candidate, SPEC_FILES.v1.file)));
	if (!found) {
		throw new Error(
			`Formbricks' OpenAPI files are not in ${candidates.join(' or ')}: set FORMBRICKS_SPECS_DIR`,
		);
	}
	return found;
}

function gitBlobId(content: Buffer): string {
	return createHash('sha1')
		.update(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]))
		.digest('hex');
}

function readSpec(version: ApiVersion): Record<string, unknown> {
	const { file, blob } = SPEC_FILES[version];
	const path = join(specsDirectory(), file);
	const content = readFileSync(path);
	if (gitBlobId(content) !== blob) {
		throw new Error(`${path} is not the file the Formbricks flavour was checked against (git blob ${blob})`);
	}
	const text = content.toString('utf8');
	const definition = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as {
		paths: Record<string, Record<string, { operationId?: string }>>;
	};
	// The v2 file writes one path with a trailing slash (…/contact-links/contacts/{contactId}/);
	// Next.js serves it without (a request with the slash is redirected, 308), and openapi-backend
	// matches neither, so the path is read without it.
	for (const path of Object.keys(definition.paths)) {
		if (path.length > 1 && path.endsWith('/')) {
			definition.paths[path.replace(/\/+$/, '')] = definition.paths[path];
			delete definition.paths[path];
		}
	}
	translateExclusiveBounds(definition);
	// openapi-backend keys its validators by operationId, which the v1 file does not give.
	for (const [path, item] of Object.entries(definition.paths)) {
		for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
			if (item[method]) item[method].operationId ??= `${method.toUpperCase()} ${path}`;
		}
	}
	return definition;
}

/**
 * OpenAPI 3.0 writes `exclusiveMaximum: false` beside `maximum` (draft 4's boolean form), which
 * Ajv's JSON Schema refuses to compile (v1's singleUseIds `limit`). Read as it is meant: `false`
 * is an inclusive bound, `true` turns `maximum` (`minimum`) into the exclusive number.
 */
function translateExclusiveBounds(node: unknown): void {
	if (Array.isArray(node)) {
		for (const entry of node) translateExclusiveBounds(entry);
		return;
	}
	if (node === null || typeof node !== 'object') return;
	const schema = node as Record<string, unknown>;
	for (const [exclusive, bound] of [
		['exclusiveMaximum', 'maximum'],
		['exclusiveMinimum', 'minimum'],
	] as const) {
		if (typeof schema[exclusive] !== 'boolean') continue;
		if (schema[exclusive] === true && typeof schema[bound] === 'number') {
			schema[exclusive] = schema[bound];
			delete schema[bound];
		} else {
			delete schema[exclusive];
		}
	}
	for (const value of Object.values(schema)) translateExclusiveBounds(value);
}

export interface SpecRequest {
	method: string;
	/** The path, without the query. */
	path: string;
	query: Record<string, unknown>;
	headers: Record<string, unknown>;
	body?: unknown;
}

interface AjvError {
	instancePath: string;
	message?: string;
	params: Record<string, unknown>;
}

/** `/query/limit` → `limit`, `/requestBody/triggers/0` → `triggers.0`, a missing property named. */
function fieldOf(error: AjvError): string {
	const parts = error.instancePath.split('/').filter(Boolean).slice(1);
	if (typeof error.params.missingProperty === 'string') parts.push(error.params.missingProperty);
	if (typeof error.params.additionalProperty === 'string') {
		parts.push(error.params.additionalProperty);
	}
	return parts.join('.') || 'body';
}

function issueOf(error: AjvError): string {
	if (typeof error.params.additionalProperty === 'string') return 'is not in the spec';
	return error.message ?? 'is invalid';
}

export class FormbricksSpecs {
	private constructor(private readonly backends: Record<ApiVersion, OpenAPIBackend>) {}

	static async load(): Promise<FormbricksSpecs> {
		const backends = {} as Record<ApiVersion, OpenAPIBackend>;
		for (const version of ['v1', 'v2'] as const) {
			const backend = new OpenAPIBackend({
				definition: readSpec(version) as never,
				apiRoot: SPEC_FILES[version].apiRoot,
				// The v1 file has a few OAS 3.0 keywords its own meta-schema check trips on; the
				// operations' schemas themselves compile.
				quick: true,
				strict: false,
				validate: true,
				ajvOpts: { allErrors: true, strict: false },
				customizeAjv: (ajv) => {
					addFormats(ajv as never);
					return ajv;
				},
			});
			await backend.init();
			backends[version] = backend;
		}
		return new FormbricksSpecs(backends);
	}

	/** `GET /api/v2/management/responses/{id}`: the method and the spec's path, under its API root. */
	operationKey(method: string, path: string): string | undefined {
		const operation = this.operation(method, path);
		const root = SPEC_FILES[apiVersion(path)].apiRoot.replace(/\/$/, '');
		return operation && `${method.toUpperCase()} ${root}${operation.path}`;
	}

	operation(method: string, path: string): Operation | undefined {
		const backend = this.backends[apiVersion(path)];
		return backend.router.matchOperation({ method: method.toLowerCase(), path, headers: {} }) as
			| Operation
			| undefined;
	}

	/**
	 * The refusal Formbricks' shape would carry for a request the spec does not allow, or
	 * undefined. v1: 400 "Fields are missing or incorrectly formatted" with `{field: message}`
	 * (as its zod checks answer); v2: 422 with `[{field, issue}]` (as `apiWrapper` answers).
	 */
	checkRequest(request: SpecRequest): FormbricksProblem | undefined {
		const version = apiVersion(request.path);
		const operation = this.operation(request.method, request.path);
		if (!operation && undocumentedRoute(request.method, request.path)) return undefined;
		if (!operation) {
			return v1.internal(`${request.method} ${request.path} is not in Formbricks' ${version} spec`);
		}
		const result = this.backends[version].validateRequest(
			{
				method: request.method.toLowerCase(),
				path: request.path,
				query: request.query as Record<string, string>,
				headers: request.headers as Record<string, string>,
				body: request.body,
			},
			operation,
		);
		const key = `${request.method.toUpperCase()} ${request.path}`;
		const errors = ((result.errors ?? []) as AjvError[]).filter(
			(error) => !REQUEST_DEVIATIONS.some((deviation) => deviation.operation.test(key) && deviation.field.test(fieldOf(error))),
		);
		// v2 declares its key as a security scheme (`x-api-key` header), which openapi-backend
		// checks only when it routes the request itself.
		if (version === 'v2' && !request.headers['x-api-key'] && operation.security?.length !== 0) {
			errors.push({ instancePath: '/header', params: { missingProperty: 'x-api-key' } });
		}
		if (errors.length === 0) return undefined;
		if (version === 'v2') {
			return v2(
				422,
				errors.map((error) => ({ field: fieldOf(error), issue: issueOf(error) })),
			);
		}
		return v1.badRequest(
			'Fields are missing or incorrectly formatted',
			Object.fromEntries(errors.map((error) => [fieldOf(error), issueOf(error)])),
		);
	}

	/** What is wrong with an answer by the operation's response schema for its status; [] if nothing. */
	checkAnswer(method: string, path: string, status: number, body: unknown): string[] {
		const version = apiVersion(path);
		const operation = this.operation(method, path);
		if (!operation) return [`${method} ${path} is not in Formbricks' ${version} spec`];
		if (!operation.responses?.[String(status)]) {
			return [`status ${status} is not documented for ${method} ${path}`];
		}
		const result = this.backends[version].validateResponse(body, operation, status);
		return ((result.errors ?? []) as AjvError[]).map((error) => {
			const extra = error.params.additionalProperty;
			return `${error.instancePath || '(body)'} ${error.message ?? 'is invalid'}${typeof extra === 'string' ? `: ${extra}` : ''}`;
		});
	}
}

let loading: Promise<FormbricksSpecs> | undefined;

/** The specs, compiled once per process. */
export async function formbricksSpecs(): Promise<FormbricksSpecs> {
	loading ??= FormbricksSpecs.load();
	return await loading;
}
