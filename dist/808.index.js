export const id = 808;
export const ids = [808];
export const modules = {

/***/ 5313:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  qx: () => (/* binding */ UnexpectedAnswerError),
  dZ: () => (/* binding */ describeGitHubError),
  BN: () => (/* binding */ githubApiUrl),
  r3: () => (/* binding */ isRetryable),
  mV: () => (/* binding */ loadOctokit),
  Vp: () => (/* binding */ runUrl)
});

// EXTERNAL MODULE: ./src/control-plane/base-url.ts
var base_url = __webpack_require__(1937);
// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
;// CONCATENATED MODULE: ./src/net/proxy.ts
const LOOPBACK = /^(localhost|127\.|\[::1\]|\[0:0:0:0:0:0:0:1\])/i;
/** The proxy for `url`, or undefined for a direct connection. */
function proxyFor(url, vars) {
    const given = url.protocol === 'https:' ? vars?.httpsProxy : vars?.httpProxy;
    if (!given || !url.hostname || LOOPBACK.test(url.hostname) || bypassed(url, vars?.noProxy))
        return undefined;
    const proxy = URL.parse(given) ?? URL.parse(`http://${given}`);
    return proxy?.hostname ? proxy : undefined;
}
function bypassed(url, noProxy = '') {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const hosts = [url.hostname.toUpperCase(), `${url.hostname.toUpperCase()}:${port}`];
    return noProxy
        .split(',')
        .map(entry => entry.trim().toUpperCase())
        .filter(Boolean)
        .some(entry => entry === '*' ||
        hosts.some(h => h === entry || h.endsWith(entry.startsWith('.') ? entry : `.${entry}`)));
}
/** A dispatcher for fetch through the proxy of `url`; undefined without one. */
async function proxyDispatcher(url, vars) {
    const proxy = proxyFor(new URL(url), vars);
    if (!proxy)
        return undefined;
    const { ProxyAgent } = await Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 6752, 19));
    const auth = proxy.username || proxy.password;
    return new ProxyAgent({
        uri: proxy.href,
        ...(auth
            ? {
                token: `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
            }
            : {})
    });
}

// EXTERNAL MODULE: ./src/runner/context.ts + 1 modules
var runner_context = __webpack_require__(5582);
;// CONCATENATED MODULE: ./src/github/api.ts
// What the GitHub-side features share: their log, where the token may go, a lazily loaded octokit,
// and errors described as what happened. Nothing here talks to the runner.




/** The REST API root of the context, or why the token may not go there. */
function githubApiUrl(context) {
    const { apiUrl } = context;
    let api;
    try {
        api = new URL(apiUrl);
    }
    catch {
        return runner_context/* CONTEXT_GAPS */.gh.apiUrl;
    }
    // The token travels with every request: the same rule as for the API key.
    if ((0,base_url/* baseUrlProblem */.aS)(api.href))
        return runner_context/* CONTEXT_GAPS */.gh.apiUrlNotHttps;
    return { apiUrl, host: api.host, ...(context.proxy ? { proxy: context.proxy } : {}) };
}
/** The link to this workflow run (and its attempt), when the runner says which run it is. */
function runUrl(context, withAttempt = false) {
    const { repo, runId, runAttempt } = context;
    if (!repo || !runId)
        return undefined;
    const base = `${context.serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`;
    return withAttempt && runAttempt ? `${base}/attempts/${runAttempt}` : base;
}
/**
 * Octokit for the API root, loaded only now: it is a large part of the bundle and most runs never
 * need it. Made from its parts, not `@actions/github`, whose import reads the runner's variables
 * and event file again: the door read them once, into the context the API root comes from.
 */
async function loadOctokit(token, { apiUrl, proxy }) {
    const [{ Octokit }, { restEndpointMethods }] = await Promise.all([
        __webpack_require__.e(/* import() */ 194).then(__webpack_require__.bind(__webpack_require__, 5194)),
        __webpack_require__.e(/* import() */ 829).then(__webpack_require__.bind(__webpack_require__, 3972))
    ]);
    const fetch = await proxyFetch(apiUrl, proxy);
    return new (Octokit.plugin(restEndpointMethods))({
        auth: `token ${token}`,
        baseUrl: apiUrl,
        ...(fetch ? { request: { fetch } } : {})
    });
}
/** Behind a proxy (the door's proxy variables), a fetch through it; none otherwise (Node's own). */
async function proxyFetch(apiUrl, proxy) {
    const dispatcher = await proxyDispatcher(apiUrl, proxy);
    if (!dispatcher)
        return undefined;
    const { fetch } = await Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 6752, 19));
    return ((url, init) => fetch(url, { ...init, dispatcher }));
}
/** GitHub answered, but not with what the request asks for (a proxy page, a wrong API root). */
class UnexpectedAnswerError extends Error {
    answerStatus;
    constructor(status, expected, said) {
        super(`answered ${status} with a body that is not ${expected}${said ? `: ${said}` : ''}`);
        this.answerStatus = status;
    }
}
/** The HTTP status of an answer GitHub gave; undefined when no answer came. */
function answerStatus(err) {
    if (err instanceof UnexpectedAnswerError)
        return err.answerStatus;
    if (typeof err !== 'object' || err === null)
        return undefined;
    const { status, response } = err;
    if (typeof status !== 'number')
        return undefined;
    // Octokit reports a connection failure or a timeout as status 500 without a response.
    return status === 500 && response === undefined ? undefined : status;
}
/** Whether a second try may go better: no answer, a server error, or rate limiting. */
function isRetryable(err) {
    if (err instanceof UnexpectedAnswerError)
        return false;
    const status = answerStatus(err);
    return status === undefined || status >= 500 || status === 429;
}
/** Codes of a failed connection: system errors, undici's, TLS and certificate ones. */
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+|ERR_TLS_[A-Z_]+|CERT_[A-Z_]+|[A-Z_]*SELF_SIGNED[A-Z_]*|UNABLE_TO_[A-Z_]+)$/;
/** The first `code` (ECONNREFUSED, ENOTFOUND...) or timeout along an error's causes. */
function networkCause(err) {
    let node = err;
    for (let depth = 0; depth < 5 && typeof node === 'object' && node !== null; depth++) {
        const { code, name, cause } = node;
        if (name === 'TimeoutError' || name === 'AbortError')
            return { timedOut: true };
        if (typeof code === 'string' && NETWORK_CODE.test(code))
            return { code, timedOut: false };
        node = cause;
    }
    return { timedOut: false };
}
/** What to do about a status whatever the feature, when its `hints` say nothing. */
const HINTS_BY_STATUS = {
    401: 'the token was refused: pass `github-token: ${{ github.token }}` or a valid token.',
    429: 'GitHub is rate limiting this token.'
};
/** What went wrong talking to `host`, and what to do (`hints`: a feature's). Never the token. */
function describeGitHubError(err, redactor, host = 'GitHub', hints = {}) {
    const clean = (text) => (0,inert/* sanitizeServerText */.c8)(redactor.redact(text), 300);
    if (err instanceof UnexpectedAnswerError)
        return `${host} ${clean(err.message)}`;
    const status = answerStatus(err);
    if (status === undefined) {
        const cause = networkCause(err);
        if (cause.timedOut)
            return `${host} did not answer in time.`;
        if (cause.code)
            return `could not connect to ${host}: ${cause.code}.`;
        const raw = err instanceof Error ? err.message : String(err);
        return `${host} could not be reached: ${clean(raw)}.`;
    }
    // Redact before cutting: a cut could split the token and leave half of it.
    const message = clean(err instanceof Error ? err.message : String(err));
    const hint = hints[status] ??
        HINTS_BY_STATUS[status] ??
        (status >= 500 ? 'GitHub had a server error.' : undefined);
    return `HTTP ${status}: ${message}${hint ? ` (${hint})` : ''}`;
}


/***/ }),

/***/ 9808:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   startGitHubDeployment: () => (/* binding */ startGitHubDeployment)
/* harmony export */ });
/* unused harmony exports finalStatus, githubDeploymentTarget, describeDeploymentError */
/* harmony import */ var _inert_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2679);
/* harmony import */ var _interface_outcomes_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5686);
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5313);
/* harmony import */ var _runner_context_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5582);




/** Longest wait for one GitHub request; on cancellation far less (the step exits 1.5 s after). */
const REQUEST_TIMEOUT_MS = 10_000;
const CANCEL_REQUEST_TIMEOUT_MS = 1_000;
/** Pause before the one retry of a status. */
const RETRY_DELAY_MS = 1_000;
/** GitHub cuts a status description at 140 characters. */
const MAX_DESCRIPTION = 140;
/** The final status for an outcome of the deploy, with a one-line description. */
function finalStatus(journal, error) {
    // A run with no outcome failed before it had one.
    const row = _interface_outcomes_js__WEBPACK_IMPORTED_MODULE_1__/* .OUTCOMES */ .i[journal.outcome ?? 'error'];
    return { state: row.github, description: row.githubSays({ ...journal, error }) };
}
/** Where the GitHub deployment goes; undefined when off or a dry run; a string: why not. */
function githubDeploymentTarget(o, context) {
    if (o.environment === undefined || o.githubToken === undefined || o.dryRun)
        return undefined;
    const none = (why) => `${why}: no GitHub deployment is created.`;
    const repository = context.repo;
    if (!repository)
        return none(_runner_context_js__WEBPACK_IMPORTED_MODULE_3__/* .CONTEXT_GAPS */ .gh.repository);
    const sha = o.expectedSha ?? context.sha;
    if (!sha)
        return none(_runner_context_js__WEBPACK_IMPORTED_MODULE_3__/* .CONTEXT_GAPS */ .gh.sha);
    const api = (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .githubApiUrl */ .BN)(context);
    if (typeof api === 'string')
        return none(api);
    return {
        token: o.githubToken,
        apiUrl: api.apiUrl,
        ...(api.proxy ? { proxy: api.proxy } : {}),
        owner: repository.owner,
        repo: repository.repo,
        sha,
        environment: o.environment,
        environmentUrl: o.environmentUrl,
        logUrl: (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .runUrl */ .Vp)(context),
        description: `Deploy ${o.name ? `"${o.name}"` : `deployment ${o.target.kind === 'id' ? o.target.deploymentId : ''}`} through the control plane`
    };
}
/** What went wrong creating or updating a GitHub deployment, with what to do; never the token. */
function describeDeploymentError(err, redactor, host) {
    return (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .describeGitHubError */ .dZ)(err, redactor, host, {
        403: 'the token may not write deployments: give the job `permissions: deployments: write` (pull requests from forks only get a read-only token).',
        404: 'the repository was not found with this token (a token for another repository, or without access).',
        409: 'GitHub refused the deployment (is the commit pushed to this repository?).',
        422: 'GitHub refused the deployment (is the commit pushed to this repository?).'
    });
}
function clip(text) {
    const oneLine = text.replace(/\s+/g, ' ').trim();
    return oneLine.length <= MAX_DESCRIPTION ? oneLine : `${oneLine.slice(0, MAX_DESCRIPTION - 1)}…`;
}
/** Creates the deployment and sets it `in_progress`; undefined (warned) when GitHub said no. */
async function start(target, deps) {
    const { redactor, log } = deps;
    const host = new URL(target.apiUrl).host;
    let octokit;
    let id;
    try {
        octokit = await (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .loadOctokit */ .mV)(target.token, target);
        const created = await octokit.rest.repos.createDeployment({
            owner: target.owner,
            repo: target.repo,
            ref: target.sha,
            environment: target.environment,
            task: 'deploy',
            description: clip(target.description),
            // No merge of the default branch into the ref, and no wait for the commit's checks: this
            // run is one of those checks, and GitHub would refuse a ref whose checks are pending.
            auto_merge: false,
            required_contexts: [],
            request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }
        });
        const data = created.data;
        if (typeof data.id !== 'number') {
            const said = typeof data.message === 'string'
                ? (0,_inert_js__WEBPACK_IMPORTED_MODULE_0__/* .sanitizeServerText */ .c8)(redactor.redact(data.message), 200)
                : undefined;
            throw new _api_js__WEBPACK_IMPORTED_MODULE_2__/* .UnexpectedAnswerError */ .qx(created.status, 'a deployment', said);
        }
        id = data.id;
    }
    catch (err) {
        log.warning(`Could not create a GitHub deployment in environment "${target.environment}": ${describeDeploymentError(err, redactor, host)} The deploy goes on.`, 'GitHub deployment not created');
        return undefined;
    }
    const made = { target, octokit, deps, id };
    log.info(`GitHub deployment ${id} in environment "${target.environment}" for commit ${target.sha}.`);
    await setStatus(made, 'in_progress', 'Deploying through the control plane.');
    const finish = async (journal, error, cancelling = false) => {
        const final = finalStatus(journal, error);
        // The URL to show: the input, else the deployment's own custom URL once known.
        const url = target.environmentUrl ?? journal.url;
        await setStatus(made, final.state, final.description, { cancelling, environmentUrl: url });
    };
    return { id, finish };
}
/** One status; a failed attempt is retried once unless the step is being cancelled. */
async function setStatus({ target, octokit, deps, id }, state, description, opts = {}) {
    const { redactor, log } = deps;
    const cancelling = opts.cancelling ?? false;
    const url = opts.environmentUrl ?? target.environmentUrl;
    // GitHub shows the URL as the environment's link: only for a deploy that is live or going on.
    const environmentUrl = state === 'success' || state === 'in_progress' ? url : undefined;
    const attempts = cancelling ? 1 : 2;
    for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
            await octokit.rest.repos.createDeploymentStatus({
                owner: target.owner,
                repo: target.repo,
                deployment_id: id,
                state,
                description: clip(redactor.redact(description)),
                ...(target.logUrl ? { log_url: target.logUrl } : {}),
                ...(environmentUrl ? { environment_url: environmentUrl } : {}),
                ...(state === 'success' ? { auto_inactive: true } : {}),
                request: {
                    signal: AbortSignal.timeout(cancelling ? CANCEL_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS)
                }
            });
            log.info(`GitHub deployment ${id}: ${state}.`);
            return true;
        }
        catch (err) {
            if (attempt < attempts && (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .isRetryable */ .r3)(err)) {
                await deps.clock.sleep(RETRY_DELAY_MS);
                continue;
            }
            const why = describeDeploymentError(err, redactor, new URL(target.apiUrl).host);
            log.warning(`Could not set GitHub deployment ${id} to ${state}: ${why}`, 'GitHub deployment status not set');
            return false;
        }
    }
    return false;
}
/** The run's GitHub deployment, created and `in_progress`, or undefined. Never throws. */
async function startGitHubDeployment(o, context, deps) {
    const { redactor, log } = deps;
    if (o.environment !== undefined && o.dryRun) {
        log.info(`Dry run: no GitHub deployment is created in environment "${o.environment}".`);
        return undefined;
    }
    const notCreated = (line) => void log.warning(line, 'GitHub deployment not created');
    const target = githubDeploymentTarget(o, context);
    if (typeof target === 'string')
        return notCreated(target);
    if (target === undefined)
        return undefined;
    try {
        return await start(target, deps);
    }
    catch (err) {
        return notCreated(`Could not create a GitHub deployment: ${describeDeploymentError(err, redactor)}`);
    }
}


/***/ })

};
