export const id = 808;
export const ids = [808];
export const modules = {

/***/ 8943:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BN: () => (/* binding */ githubApiUrl),
/* harmony export */   Vp: () => (/* binding */ runUrl),
/* harmony export */   dZ: () => (/* binding */ describeGitHubError),
/* harmony export */   mV: () => (/* binding */ loadOctokit),
/* harmony export */   qx: () => (/* binding */ UnexpectedAnswerError),
/* harmony export */   r3: () => (/* binding */ isRetryable)
/* harmony export */ });
/* harmony import */ var _control_plane_base_url_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1937);
/* harmony import */ var _control_plane_redact_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7889);
/* harmony import */ var _runner_context_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1953);



/** The REST API root of the context, or why the token may not go there. */
function githubApiUrl(context) {
    const { apiUrl } = context;
    let api;
    try {
        api = new URL(apiUrl);
    }
    catch {
        return _runner_context_js__WEBPACK_IMPORTED_MODULE_2__/* .CONTEXT_GAPS */ .gh.apiUrl;
    }
    // The token travels with every request: the same rule as for the API key.
    if ((0,_control_plane_base_url_js__WEBPACK_IMPORTED_MODULE_0__/* .baseUrlProblem */ .aS)(api.href))
        return _runner_context_js__WEBPACK_IMPORTED_MODULE_2__/* .CONTEXT_GAPS */ .gh.apiUrlNotHttps;
    return { apiUrl, host: api.host };
}
/** The link to this workflow run (and its attempt), when the runner says which run it is. */
function runUrl(context, withAttempt = false) {
    const { repo, runId, runAttempt } = context;
    if (!repo || !runId)
        return undefined;
    const base = `${context.serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`;
    return withAttempt && runAttempt ? `${base}/attempts/${runAttempt}` : base;
}
/** Octokit for the API root, loaded only now: it is a large part of the bundle and most runs never need it. */
async function loadOctokit(token, apiUrl) {
    const { getOctokit } = await __webpack_require__.e(/* import() */ 413).then(__webpack_require__.bind(__webpack_require__, 2413));
    return getOctokit(token, { baseUrl: apiUrl });
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
/**
 * What went wrong talking to `host`, as it happened, with what to do about it for the statuses
 * whose cause is known; `hints` adds per-feature advice (the permission it needs). Never the token.
 */
function describeGitHubError(err, redactor, host = 'GitHub', hints = {}) {
    const clean = (text) => (0,_control_plane_redact_js__WEBPACK_IMPORTED_MODULE_1__/* .sanitizeServerText */ .c8)(redactor.redact(text), 300);
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
    const hint = status === 401
        ? (hints[401] ??
            'the token was refused: pass `github-token: ${{ github.token }}` or a valid token.')
        : status === 403 || status === 404 || status === 409 || status === 422
            ? hints[status]
            : status === 429
                ? 'GitHub is rate limiting this token.'
                : status >= 500
                    ? 'GitHub had a server error.'
                    : undefined;
    return `HTTP ${status}: ${message}${hint ? ` (${hint})` : ''}`;
}


/***/ }),

/***/ 9808:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   startGitHubDeployment: () => (/* binding */ startGitHubDeployment)
/* harmony export */ });
/* unused harmony exports finalStatus, githubDeploymentTarget, describeDeploymentError, GitHubDeployment */
/* harmony import */ var _control_plane_redact_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7889);
/* harmony import */ var _interface_outcomes_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5686);
/* harmony import */ var _api_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8943);
/* harmony import */ var _runner_context_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1953);
// A GitHub deployment around the control-plane deploy, so that the deploy shows up where GitHub
// shows deploys: the repository's Deployments page, the environment, and the pull request.
//
// Best effort by design: GitHub is a mirror of the outcome, never a judge of it. A failure to talk
// to GitHub is one warning and the deploy goes on; the job's result is decided by the control plane
// alone (main.ts). The token is masked by the entry layer before anything runs and never appears
// in a message: only GitHub's status code and its own (redacted) message do. It writes no output:
// the caller stores the returned deployment's `id` and the entry layer writes the outputs.




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
/**
 * Where the GitHub deployment goes, or why there is none. `undefined`: GitHub deployments are
 * off (`environment` not set) or this is a dry run; a string: a reason to warn about.
 */
function githubDeploymentTarget(o, context) {
    if (o.environment === undefined || o.githubToken === undefined || o.dryRun)
        return undefined;
    const repository = context.repo;
    if (!repository) {
        return `${_runner_context_js__WEBPACK_IMPORTED_MODULE_3__/* .CONTEXT_GAPS */ .gh.repository}: no GitHub deployment is created.`;
    }
    const sha = o.expectedSha ?? context.sha;
    if (!sha)
        return `${_runner_context_js__WEBPACK_IMPORTED_MODULE_3__/* .CONTEXT_GAPS */ .gh.sha}: no GitHub deployment is created.`;
    const api = (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .githubApiUrl */ .BN)(context);
    if (typeof api === 'string')
        return `${api}: no GitHub deployment is created.`;
    return {
        token: o.githubToken,
        apiUrl: api.apiUrl,
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
/** A GitHub deployment in progress: created and set `in_progress` by `start`, ended by `finish`. */
class GitHubDeployment {
    target;
    octokit;
    deps;
    host;
    /** GitHub's id of the deployment: the `github-deployment-id` output. */
    id;
    constructor(target, octokit, deps, id) {
        this.target = target;
        this.octokit = octokit;
        this.deps = deps;
        this.host = new URL(target.apiUrl).host;
        this.id = id;
    }
    /**
     * Creates the deployment for the commit and environment and sets it `in_progress`. Undefined
     * (after one warning) when GitHub said no or could not be reached.
     */
    static async start(target, deps) {
        const { redactor, log } = deps;
        const host = new URL(target.apiUrl).host;
        let octokit;
        let id;
        try {
            octokit = await (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .loadOctokit */ .mV)(target.token, target.apiUrl);
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
                    ? (0,_control_plane_redact_js__WEBPACK_IMPORTED_MODULE_0__/* .sanitizeServerText */ .c8)(redactor.redact(data.message), 200)
                    : undefined;
                throw new _api_js__WEBPACK_IMPORTED_MODULE_2__/* .UnexpectedAnswerError */ .qx(created.status, 'a deployment', said);
            }
            id = data.id;
        }
        catch (err) {
            log.warning(`Could not create a GitHub deployment in environment "${target.environment}": ${describeDeploymentError(err, redactor, host)} The deploy goes on.`, 'GitHub deployment not created');
            return undefined;
        }
        const deployment = new GitHubDeployment(target, octokit, deps, id);
        log.info(`GitHub deployment ${id} in environment "${target.environment}" for commit ${target.sha}.`);
        await deployment.setStatus('in_progress', 'Deploying through the control plane.');
        return deployment;
    }
    /** The final status for the deploy's outcome; `cancelling`: keep it short, the step is ending. */
    async finish(journal, error, cancelling = false) {
        const final = finalStatus(journal, error);
        // The URL to show: the input, else the deployment's own custom URL once known.
        const url = this.target.environmentUrl ?? journal.url;
        await this.setStatus(final.state, final.description, { cancelling, environmentUrl: url });
    }
    /** One status; a failed attempt is retried once unless the step is being cancelled. */
    async setStatus(state, description, opts = {}) {
        const { target } = this;
        const { redactor, log } = this.deps;
        const cancelling = opts.cancelling ?? false;
        const url = opts.environmentUrl ?? target.environmentUrl;
        // GitHub shows the URL as the environment's link: only for a deploy that is live or going on.
        const environmentUrl = state === 'success' || state === 'in_progress' ? url : undefined;
        const attempts = cancelling ? 1 : 2;
        for (let attempt = 1; attempt <= attempts; attempt++) {
            try {
                await this.octokit.rest.repos.createDeploymentStatus({
                    owner: target.owner,
                    repo: target.repo,
                    deployment_id: this.id,
                    state,
                    description: clip(redactor.redact(description)),
                    ...(target.logUrl ? { log_url: target.logUrl } : {}),
                    ...(environmentUrl ? { environment_url: environmentUrl } : {}),
                    ...(state === 'success' ? { auto_inactive: true } : {}),
                    request: {
                        signal: AbortSignal.timeout(cancelling ? CANCEL_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS)
                    }
                });
                log.info(`GitHub deployment ${this.id}: ${state}.`);
                return true;
            }
            catch (err) {
                if (attempt < attempts && (0,_api_js__WEBPACK_IMPORTED_MODULE_2__/* .isRetryable */ .r3)(err)) {
                    await this.deps.clock.sleep(RETRY_DELAY_MS);
                    continue;
                }
                log.warning(`Could not set GitHub deployment ${this.id} to ${state}: ${describeDeploymentError(err, redactor, this.host)}`, 'GitHub deployment status not set');
                return false;
            }
        }
        return false;
    }
}
/**
 * The GitHub deployment of this run, when `environment` is set: created and `in_progress`, or
 * undefined (off, a dry run, or GitHub said no: then after one warning). Never throws. The
 * caller keeps the returned deployment's `id` for the `github-deployment-id` output.
 */
async function startGitHubDeployment(o, context, deps) {
    const { redactor, log } = deps;
    if (o.environment !== undefined && o.dryRun) {
        log.info(`Dry run: no GitHub deployment is created in environment "${o.environment}".`);
        return undefined;
    }
    const target = githubDeploymentTarget(o, context);
    if (typeof target === 'string') {
        log.warning(target, 'GitHub deployment not created');
        return undefined;
    }
    if (target === undefined)
        return undefined;
    try {
        return await GitHubDeployment.start(target, deps);
    }
    catch (err) {
        log.warning(`Could not create a GitHub deployment: ${describeDeploymentError(err, redactor)}`, 'GitHub deployment not created');
        return undefined;
    }
}


/***/ })

};
