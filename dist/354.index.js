export const id = 354;
export const ids = [354,836];
export const modules = {

/***/ 7836:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   EU_API: () => (/* binding */ EU_API),
/* harmony export */   US_API: () => (/* binding */ US_API),
/* harmony export */   experimentUrl: () => (/* binding */ experimentUrl),
/* harmony export */   langsmithApiOf: () => (/* binding */ langsmithApiOf),
/* harmony export */   webAppOfApi: () => (/* binding */ webAppOfApi)
/* harmony export */ });
// Where the LangSmith API is: `langsmith-api-url`, or the hosted one of the control plane's region
// (`eu.api.host...` -> `eu.api.smith...`); a self-hosted control plane needs it set. And the web
// app that belongs to it, which `evaluation-url` links.
const US_API = 'https://api.smith.langchain.com';
const EU_API = 'https://eu.api.smith.langchain.com';
const HOSTED_CONTROL_PLANE = /^(?:(eu)\.)?api\.host\.langchain\.com$/;
const HOSTED_API = /^(?:(eu)\.)?api\.smith\.langchain\.com$/;
/** The LangSmith API of a run: the input, else the region's; undefined when it cannot be known. */
function langsmithApiOf(given, baseUrl) {
    if (given !== undefined)
        return given.replace(/\/+$/, '');
    const host = URL.parse(baseUrl)?.hostname.toLowerCase().replace(/\.$/, '') ?? '';
    const m = HOSTED_CONTROL_PLANE.exec(host) ?? HOSTED_API.exec(host);
    if (!m)
        return undefined;
    return m[1] === 'eu' ? EU_API : US_API;
}
/** The web app of a LangSmith API: the hosted one's, else the API's own origin (self-hosted). */
function webAppOfApi(apiUrl) {
    const url = URL.parse(apiUrl);
    if (!url)
        return apiUrl;
    const m = HOSTED_API.exec(url.hostname.toLowerCase().replace(/\.$/, ''));
    if (m)
        return m[1] === 'eu' ? 'https://eu.smith.langchain.com' : 'https://smith.langchain.com';
    return url.origin;
}
/** The web app's page of an experiment: the dataset's comparison view with it selected. */
function experimentUrl(apiUrl, e) {
    const org = e.tenantId ? `/o/${encodeURIComponent(e.tenantId)}` : '';
    return `${webAppOfApi(apiUrl)}${org}/datasets/${encodeURIComponent(e.datasetId)}/compare?selectedSessions=${encodeURIComponent(e.experimentId)}`;
}


/***/ }),

/***/ 8354:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  langsmithRecorder: () => (/* binding */ langsmithRecorder)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/evaluate/langsmith-url.ts
var langsmith_url = __webpack_require__(7836);
// EXTERNAL MODULE: ./src/clock.ts + 1 modules
var src_clock = __webpack_require__(529);
// EXTERNAL MODULE: ./src/control-plane/http.ts
var http = __webpack_require__(1860);
// EXTERNAL MODULE: ./src/control-plane/http-util.ts
var http_util = __webpack_require__(7933);
// EXTERNAL MODULE: ./src/net/request.ts
var request = __webpack_require__(2170);
;// CONCATENATED MODULE: ./src/evaluate/langsmith-fetch.ts
// The LangSmith client's fetch, built on the one request of src/net/: to the LangSmith API's origin
// only (the key goes nowhere else: a URL elsewhere is refused unsent), a redirect an answer never
// followed, the run's proxy and cancel, a cap on the body; 429 and 5xx retried here, with backoff
// and Retry-After, on the run's clock and within its deadline (the client's own retries, on real
// time and deaf to Retry-After, are off: langsmith.ts). The client sees a plain Response.




/** Bytes of one LangSmith answer read at most (a page of examples or feedback). */
const MAX_LANGSMITH_BODY = 16 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;
/** What LangSmith answers when it is busy or failing for a moment. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);
function headersOf(init) {
    const out = {};
    new Headers(init?.headers).forEach((value, name) => (out[name] = value));
    return out;
}
async function bodyOf(body) {
    if (body === undefined || body === null)
        return undefined;
    if (typeof body === 'string')
        return body;
    if (body instanceof Uint8Array)
        return Buffer.from(body);
    if (body instanceof ArrayBuffer)
        return Buffer.from(body);
    // A Blob, FormData or stream: read through a Response, as fetch itself would.
    return Buffer.from(await new Response(body).arrayBuffer());
}
const NULL_BODY = new Set([101, 204, 205, 304]);
function responseOf(answer) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined)
            headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    return new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
        status: answer.status,
        headers
    });
}
/**
 * The pause before retry `attempt` after `answer`, or undefined when it is final: not a 429 or a
 * 5xx, out of attempts, or the pause would end past the deadline. Retry-After is a floor, cut to
 * a minute, with a backoff on top (jobs told the same do not come back together).
 */
function pauseAfter(o, clock, answer, attempt) {
    if (!RETRYABLE.has(answer.status))
        return undefined;
    const limit = answer.status === 429 ? http/* DEFAULT_RETRY */.v.maxRateLimitedAttempts : http/* DEFAULT_RETRY */.v.maxAttempts;
    if (attempt >= limit)
        return undefined;
    const { baseDelayMs, maxDelayMs, maxRetryAfterMs } = http/* DEFAULT_RETRY */.v;
    const backoff = (0,http_util/* backoffDelay */.EY)(attempt, baseDelayMs, maxDelayMs, o.random);
    const after = (0,http_util/* parseRetryAfter */.mu)(answer.headers['retry-after'], clock.now());
    const delay = after === undefined ? backoff : Math.min(after, maxRetryAfterMs) + backoff;
    if (o.deadline !== undefined && clock.now() + delay >= o.deadline)
        return undefined;
    return { delay, retryAfter: after !== undefined };
}
/** A fetch for the `langsmith` client that keeps to the project's rules of requests. */
function langsmithFetch(o) {
    const origin = new URL(o.apiUrl).origin;
    const clock = o.clock ?? (0,src_clock/* makeClock */.Z)();
    return (async (input, init) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.origin !== origin)
            throw new Error(`a LangSmith request to ${url.origin} was refused unsent: only ${origin} (langsmith-api-url) gets the key`);
        const signals = [o.signal, init?.signal ?? undefined].filter((s) => s !== undefined);
        const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
        const method = init?.method ?? 'GET';
        const body = init?.body == null ? undefined : await bodyOf(init.body);
        for (let attempt = 1;; attempt++) {
            o.onRequest?.();
            const answer = await (0,request/* request */.E)({
                url,
                method,
                headers: headersOf(init),
                ...(body === undefined ? {} : { body }),
                timeoutMs: REQUEST_TIMEOUT_MS,
                ...(signal ? { signal } : {}),
                maxBody: MAX_LANGSMITH_BODY
            });
            const pause = pauseAfter(o, clock, answer, attempt);
            if (!pause)
                return responseOf(answer);
            o.onRetry?.(`LangSmith ${method} ${url.pathname}: HTTP ${answer.status}; retry ${attempt} in ${pause.delay} ms${pause.retryAfter ? ' (Retry-After)' : ''}`);
            await clock.sleep(pause.delay, signal);
        }
    });
}

;// CONCATENATED MODULE: ./src/evaluate/langsmith.ts



/** Run ids per feedback read: each is a query parameter. */
const FEEDBACK_RUNS_PER_READ = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * The client, made to keep to the run's rules. Its fetch retries (langsmith-fetch.ts); its own
 * retries are off: they pause on real time, past the run's deadline, and read no Retry-After.
 * Its main caller sets 4 retries over `callerOptions`, so that one is turned off on the caller.
 */
async function clientOf(o) {
    const { Client } = await __webpack_require__.e(/* import() */ 733).then(__webpack_require__.bind(__webpack_require__, 9733));
    const client = new Client({
        apiUrl: o.apiUrl,
        apiKey: o.apiKey,
        ...(o.tenantId ? { workspaceId: o.tenantId } : {}),
        autoBatchTracing: false,
        omitTracedRuntimeInfo: true,
        callerOptions: { maxRetries: 0 },
        fetchImplementation: langsmithFetch(o)
    });
    const caller = client.caller;
    if (caller && typeof caller.maxRetries === 'number')
        caller.maxRetries = 0;
    return client;
}
async function langsmithRecorder(o) {
    return new LangsmithRecorder(o, await clientOf(o));
}
/** The gate's calls, each one or a few of the client's. */
class LangsmithRecorder {
    #datasetId = '';
    #tenantId;
    /** The feedback this run wrote: never read back as the dataset evaluators'. */
    #own = new Set();
    #o;
    #client;
    constructor(o, client) {
        this.#o = o;
        this.#client = client;
        this.#tenantId = o.tenantId;
    }
    #experimentOf(s) {
        const extra = isObject(s.extra) ? s.extra : {};
        const metadata = isObject(extra.metadata) ? extra.metadata : {};
        const ids = {
            tenantId: s.tenant_id ?? this.#tenantId,
            datasetId: this.#datasetId,
            experimentId: s.id
        };
        return { id: s.id, name: s.name ?? s.id, url: (0,langsmith_url.experimentUrl)(this.#o.apiUrl, ids), metadata };
    }
    datasetId() {
        return this.#datasetId;
    }
    async examples() {
        const name = this.#o.dataset;
        const dataset = await this.#client.readDataset(UUID.test(name) ? { datasetId: name } : { datasetName: name });
        this.#datasetId = dataset.id;
        this.#tenantId ??= dataset.tenant_id;
        const examples = [];
        for await (const e of this.#client.listExamples({ datasetId: dataset.id }))
            examples.push({
                id: e.id,
                inputs: e.inputs,
                ...(isObject(e.outputs) ? { outputs: e.outputs } : {})
            });
        return { datasetId: dataset.id, examples };
    }
    async start(name, metadata) {
        const s = await this.#client.createProject({
            projectName: name,
            referenceDatasetId: this.#datasetId,
            metadata: { ...metadata }
        });
        return this.#experimentOf(s);
    }
    async record(e, runs) {
        const ids = new Map();
        for (const r of runs) {
            const id = (0,external_node_crypto_.randomUUID)();
            const outputs = r.status === 'ok' ? (isObject(r.output) ? r.output : { output: r.output }) : undefined;
            await this.#client.createRun({
                id,
                name: 'evaluate',
                run_type: 'chain',
                inputs: r.example.inputs,
                ...(outputs ? { outputs } : {}),
                ...(r.error === undefined ? {} : { error: r.error }),
                start_time: r.startedAt,
                end_time: r.endedAt,
                reference_example_id: r.example.id,
                project_name: e.name
            });
            ids.set(r.example.id, id);
        }
        return ids;
    }
    async score(e, runIds, scores) {
        for (const [exampleId, byKey] of scores) {
            const runId = runIds.get(exampleId);
            if (runId === undefined)
                continue;
            for (const [key, score] of byKey) {
                const feedbackId = (0,external_node_crypto_.randomUUID)();
                this.#own.add(feedbackId);
                await this.#client.createFeedback(runId, key, {
                    score,
                    feedbackId,
                    sessionId: e.id,
                    feedbackSourceType: 'api'
                });
            }
        }
    }
    async feedback(runIds, keys) {
        const byRun = new Map([...runIds].map(([example, run]) => [run, example]));
        const table = new Map();
        if (runIds.size === 0 || keys.length === 0)
            return table;
        const ids = [...runIds.values()];
        for (let i = 0; i < ids.length; i += FEEDBACK_RUNS_PER_READ)
            await this.#read(ids.slice(i, i + FEEDBACK_RUNS_PER_READ), keys, byRun, table);
        return table;
    }
    /** One read of the feedback of some runs (a query of a hundred run ids at most). */
    async #read(runIds, keys, byRun, table) {
        const listed = this.#client.listFeedback({ runIds, feedbackKeys: [...keys] });
        for await (const f of listed) {
            const example = f.run_id ? byRun.get(f.run_id) : undefined;
            const scored = typeof f.score === 'number' || typeof f.score === 'boolean';
            if (example === undefined || this.#own.has(f.id) || !scored)
                continue;
            const row = table.get(example) ?? new Map();
            row.set(f.key, Number(f.score));
            table.set(example, row);
        }
    }
    async finish(e, metadata) {
        await this.#client.updateProject(e.id, { metadata: { ...metadata } });
    }
    async experiments(match) {
        const out = [];
        for await (const s of this.#client.listProjects({
            referenceDatasetId: this.#datasetId,
            metadata: { ...match }
        })) {
            const e = this.#experimentOf(s);
            const meta = e.metadata;
            if (Object.entries(match).every(([k, v]) => meta[k] === v))
                out.push({ e, at: String(s.start_time ?? '') });
        }
        return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map(x => x.e);
    }
}


/***/ })

};
