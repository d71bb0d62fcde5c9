/**
 * Formbricks' response pipeline, as far as webhooks go (processResponsePipelineJob in
 * apps/web/modules/response-pipeline/lib/process-response-pipeline-job.ts at b66c1dd): every event
 * of a response is one BullMQ job, handled by one worker (concurrency 1, packages/jobs/src/runtime.ts),
 * jobs in the order they were queued. Each attempt of a job
 * - reads the webhooks subscribed to the event and the survey now (a hook deleted since the last
 *   attempt gets nothing more, one added gets the retry; a renamed survey changes the body),
 * - posts to all of them at once (`Promise.allSettled`), each with its own timeout,
 * - fails as a whole when any one failed: the job is retried after its backoff and **every**
 *   subscribed webhook gets the event again, also those that answered 2xx the first time
 *   (with the same `webhook-id`, which is how a receiver recognises the redelivery).
 * A failed job waits in BullMQ's delayed set while the worker goes on with later jobs, so a retried
 * event can arrive after events that happened later.
 */
import type { Deliverer } from '../deliveries';
import { backoffMs, FORMBRICKS_DELIVERY } from './timing';
import {
	buildDelivery,
	pipelineResponse,
	type PipelineEvent,
	type PipelineSurvey,
} from './webhook';

export interface PipelineHook {
	id: string;
	url: string;
	secret: string | null;
}

export interface PipelineJob {
	event: PipelineEvent;
	surveyId: string;
	/** The response as it was when the event happened (TResponse), as the job data holds it. */
	response: unknown;
}

export interface PipelineOptions {
	deliverer: Deliverer;
	/** BullMQ's backoff delay: 5 s in Formbricks; tests make it short. */
	backoffDelayMs: number;
	/** The hooks subscribed to an event of a survey, as they are now. */
	hooksFor(event: PipelineEvent, surveyId: string): PipelineHook[];
	/** The survey as it is now, or undefined once deleted (the job then ends, unrecoverable). */
	survey(surveyId: string): PipelineSurvey | undefined;
	urls(): { publicUrl: string; webappUrl: string };
}

const WORKER = 'formbricks-worker';

export class Pipeline {
	/** BullMQ numbers jobs 1, 2, 3… in its queue; the number goes into `webhook-id`. */
	private jobCount = 0;

	constructor(private readonly options: PipelineOptions) {}

	/** Throws, as Formbricks' `sendToPipeline` does, when the response does not fit the job's schema. */
	enqueue(job: PipelineJob): void {
		pipelineResponse(job.response);
		const jobId = String(++this.jobCount);
		this.options.deliverer.enqueue(
			WORKER,
			async (generation) => await this.attempt(jobId, job, 1, generation),
		);
	}

	async idle(): Promise<void> {
		await this.options.deliverer.idle();
	}

	/** `generation`: the deliverer's when the event happened; a reset since drops the job. */
	private async attempt(
		jobId: string,
		job: PipelineJob,
		attempt: number,
		generation: number,
	): Promise<void> {
		const { deliverer } = this.options;
		const survey = this.options.survey(job.surveyId);
		if (!survey) return;
		const now = new Date();
		const results = await Promise.all(
			this.options.hooksFor(job.event, job.surveyId).map(async (hook) => {
				const delivery = buildDelivery({
					jobId,
					event: job.event,
					webhook: hook,
					response: job.response,
					survey,
					urls: this.options.urls(),
					now,
				});
				const entry = await deliverer.attemptOnce(
					{
						deliveryId: delivery.messageId,
						event: job.event,
						url: hook.url,
						body: delivery.body,
						headers: () => delivery.headers,
					},
					attempt,
					generation,
				);
				return entry.status !== undefined && entry.status >= 200 && entry.status < 300;
			}),
		);
		if (results.every(Boolean) || attempt >= FORMBRICKS_DELIVERY.attempts) return;
		// The wait is queued under its own key, so that idle() waits for the retry too.
		deliverer.enqueue(
			`${WORKER}:retry:${jobId}`,
			async () => {
				if (await deliverer.pause(backoffMs(this.options.backoffDelayMs, attempt), generation)) {
					deliverer.enqueue(
						WORKER,
						async () => await this.attempt(jobId, job, attempt + 1, generation),
						generation,
					);
				}
			},
			generation,
		);
	}
}
