/**
 * Strict request validation, by hand: the contract wants unknown fields and parameters
 * refused with 400, where a schema validator's defaults would drop or coerce them.
 */
export class HttpProblem extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly details: Record<string, unknown> = {},
	) {
		super(message);
	}
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
	new HttpProblem(400, message, details);
export const notFound = (message: string) => new HttpProblem(404, message);
export const conflict = (message: string) => new HttpProblem(409, message);

/** Refuses unknown and repeated query parameters; returns the known ones. */
export function checkQuery(query: unknown, allowed: string[]): Record<string, string | undefined> {
	const params = (query ?? {}) as Record<string, string | string[]>;
	for (const [name, value] of Object.entries(params)) {
		if (!allowed.includes(name)) throw badRequest(`Unknown query parameter "${name}"`);
		if (Array.isArray(value)) throw badRequest(`Query parameter "${name}" is given more than once`);
	}
	return params as Record<string, string>;
}

/** An integer query parameter within bounds; out of bounds is an error, never clamped. */
export function integerParam(
	value: string | undefined,
	name: string,
	bounds: { fallback: number; min: number; max: number },
): number {
	if (value === undefined) return bounds.fallback;
	if (!/^\d+$/.test(value)) throw badRequest(`"${name}" must be a non-negative integer`);
	const number = Number(value);
	if (number < bounds.min || number > bounds.max) {
		throw badRequest(`"${name}" must be between ${bounds.min} and ${bounds.max}`);
	}
	return number;
}

export type FieldType =
	| 'string'
	| 'string[]'
	| 'integer'
	| 'integer|null'
	| 'number'
	| 'boolean'
	| 'object'
	| 'array';

const isObject = (value: unknown): value is Record<string, unknown> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

const HAS_TYPE: Record<FieldType, (value: unknown) => boolean> = {
	string: (value) => typeof value === 'string',
	'string[]': (value) => Array.isArray(value) && value.every((entry) => typeof entry === 'string'),
	integer: (value) => Number.isInteger(value),
	'integer|null': (value) => value === null || Number.isInteger(value),
	number: (value) => typeof value === 'number' && Number.isFinite(value),
	boolean: (value) => typeof value === 'boolean',
	object: isObject,
	array: Array.isArray,
};

/**
 * A JSON object with its required fields, every field of its declared type, and no other
 * field. `at` names the object in messages (`recipients[1]`).
 */
export function checkBody(
	body: unknown,
	fields: { required?: Record<string, FieldType>; optional?: Record<string, FieldType> },
	at = 'body',
): Record<string, unknown> {
	if (!isObject(body)) throw badRequest(`The ${at} must be a JSON object`);
	const required = fields.required ?? {};
	const optional = fields.optional ?? {};
	const name = (field: string) => (at === 'body' ? field : `${at}.${field}`);
	for (const field of Object.keys(body)) {
		if (!(field in required) && !(field in optional)) {
			throw badRequest(`Unknown field "${name(field)}"`);
		}
	}
	for (const [field, type] of Object.entries({ ...optional, ...required })) {
		if (body[field] === undefined) {
			if (field in required) throw badRequest(`Missing required field "${name(field)}"`);
		} else if (!HAS_TYPE[type](body[field])) {
			throw badRequest(`Field "${name(field)}" must be of type ${type}`);
		}
	}
	return body;
}

export function nonEmpty(value: unknown, name: string): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw badRequest(`"${name}" must not be empty`);
	}
	return value;
}

export function httpUrl(value: unknown, name: string): string {
	try {
		if (/^https?:$/.test(new URL(String(value)).protocol)) return String(value);
	} catch {
		// not a URL at all: the same answer as another scheme
	}
	throw badRequest(`"${name}" must be an http(s) URL`);
}

export function isoTime(value: unknown, name: string): string {
	const time = Date.parse(String(value));
	if (Number.isNaN(time)) throw badRequest(`"${name}" must be an ISO 8601 time`);
	return new Date(time).toISOString();
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): T {
	if (!allowed.includes(value as T)) {
		throw badRequest(`"${name}" must be one of ${allowed.join(', ')}`);
	}
	return value as T;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
