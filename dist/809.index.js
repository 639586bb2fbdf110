export const id = 809;
export const ids = [809];
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

/***/ 809:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  PR_COMMENT_BUDGET_MS: () => (/* binding */ PR_COMMENT_BUDGET_MS),
  PR_COMMENT_REQUEST_TIMEOUT_MS: () => (/* binding */ PR_COMMENT_REQUEST_TIMEOUT_MS),
  WORKFLOW_TOKEN_LOGIN: () => (/* binding */ WORKFLOW_TOKEN_LOGIN),
  postPrComment: () => (/* binding */ postPrComment)
});

// EXTERNAL MODULE: ./src/control-plane/redact.ts
var redact = __webpack_require__(7889);
// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
// EXTERNAL MODULE: ./src/github/api.ts + 1 modules
var github_api = __webpack_require__(5313);
// EXTERNAL MODULE: ./src/interface/outcomes.ts
var outcomes = __webpack_require__(5686);
// EXTERNAL MODULE: ./src/report/evaluation.ts
var evaluation = __webpack_require__(9686);
;// CONCATENATED MODULE: ./src/github/comment-body.ts
// The pull-request comment's text: a hidden marker that finds it again, a headline, a table of what
// is known, the reason and a collapsed log excerpt. Every text the run did not write (an answer, a
// name, an error quoting the workspace) goes in through src/inert.ts and shows as text.



const MAX_EXCERPT_LINES = 100;
const MAX_EXCERPT_CHARS = 20_000;
/** The hidden first line that identifies the comment of one deployment name. */
function commentMarker(name) {
    // Encoded, so that no name can close the HTML comment or look like another name's marker.
    return `<!-- control-plane-deploy:comment name=${encodeURIComponent(name)} -->`;
}
/** Whether a comment's body is the one of this deployment name (the marker on its first line). */
function isCommentFor(body, name) {
    if (typeof body !== 'string')
        return false;
    const marker = commentMarker(name);
    return body.startsWith(marker) && /^(\r?\n|$)/.test(body.slice(marker.length));
}
/** A link when it is a plain http(s) URL, else the text as code. */
function comment_body_link(url, label = url) {
    if (!inert/* SAFE_URL */.mT.test(url))
        return (0,inert/* mdCode */.xs)(url);
    return `[${label === url ? url : (0,inert/* mdText */.bC)(label, 200)}](${url})`;
}
/** The excerpt's last lines, without terminal codes, fenced so that nothing in it ends the fence. */
function excerpt(text) {
    let lines = text.replace(/\r\n?/g, '\n').split('\n');
    while (lines.length > 0 && lines.at(-1).trim() === '')
        lines.pop();
    lines = lines.slice(-MAX_EXCERPT_LINES);
    let body = lines.join('\n');
    if (body.length > MAX_EXCERPT_CHARS)
        body = `…${body.slice(-MAX_EXCERPT_CHARS)}`;
    return (0,inert/* mdFenced */.bm)(body.split('\n'), 'text');
}
/** The headline and one sentence for the outcome (outcomes.ts), a deploy's or a delete's. */
function headline(r) {
    const row = outcomes/* OUTCOMES */.i[r.outcome ?? 'error'];
    return r.removal ? row.removal(r) : row.comment(r);
}
/** The whole comment for one run; the marker is its first line. */
function renderComment(r, links = {}) {
    const { title, sentence } = headline(r);
    const rows = [];
    // A removed preview has no URL worth following.
    if (r.url && !r.removal)
        rows.push(['URL', comment_body_link(r.url)]);
    if (r.statusUrl && !r.removal)
        rows.push(['Deployment page', comment_body_link(r.statusUrl)]);
    const status = r.revisionStatus ? ` (${(0,inert/* mdCode */.xs)(r.revisionStatus)})` : '';
    if (r.revisionId)
        rows.push(['Revision', `${(0,inert/* mdCode */.xs)(r.revisionId)}${status}`]);
    if (r.deploymentId)
        rows.push(['Deployment', (0,inert/* mdCode */.xs)(r.deploymentId)]);
    if (r.promotedFrom)
        rows.push(['Promoted from', (0,inert/* mdText */.bC)(r.promotedFrom, 400)]);
    if (r.tier && !r.removal)
        rows.push(['Type and size', (0,inert/* mdText */.bC)(r.tier, 200)]);
    if (r.commitSha) {
        const short = r.commitSha.slice(0, 7);
        const sha = /^[0-9a-f]{7,64}$/i.test(r.commitSha) ? r.commitSha : undefined;
        const repo = links.repository;
        rows.push(['Commit', sha && repo ? comment_body_link(`${repo}/commit/${sha}`, short) : (0,inert/* mdCode */.xs)(short)]);
    }
    if (links.run)
        rows.push(['Run', comment_body_link(links.run, 'workflow run')]);
    const parts = [commentMarker(r.name), `### ${(0,inert/* mdCode */.xs)(r.name)}: ${title}`];
    if (sentence)
        parts.push(sentence);
    if (rows.length > 0)
        parts.push(['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n'));
    if (r.evaluation)
        parts.push((0,evaluation/* evaluationMarkdown */.i)(r.evaluation).join('\n'));
    if (r.error)
        parts.push(`**Reason:** ${(0,inert/* mdText */.bC)(r.error, 2000)}`);
    if (r.logExcerpt?.trim())
        parts.push(`<details><summary>Log excerpt</summary>\n\n${excerpt(r.logExcerpt)}\n\n</details>`);
    parts.push('<sub>Updated in place by control-plane-deploy on every run.</sub>');
    return `${parts.join('\n\n')}\n`;
}

// EXTERNAL MODULE: ./src/runner/context.ts + 1 modules
var runner_context = __webpack_require__(5582);
;// CONCATENATED MODULE: ./src/github/pr-comment.ts
// `pr-comment: true`: one comment on the pull request per deployment name, found again by the
// hidden marker on its first line, so that re-runs and later pushes update it in place. Best
// effort: a failure is one warning, never the verdict; 5 s per request, 15 s in all (1 s when
// cancelling). The token goes only to the API root under the API key's rule, in no line built here.





const PR_COMMENT_REQUEST_TIMEOUT_MS = 5_000;
const PR_COMMENT_BUDGET_MS = 15_000;
const CANCEL_BUDGET_MS = 1_000;
const PER_PAGE = 100;
/** Comments read at most while looking for ours: 2,000. */
const MAX_PAGES = 20;
/** The identity GitHub shows for the workflow's own token. */
const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]';
function asComment(value) {
    if (typeof value !== 'object' || value === null)
        return undefined;
    const { id, body, html_url: url, user } = value;
    if (typeof id !== 'number')
        return undefined;
    const login = user?.login;
    return {
        id,
        body: typeof body === 'string' ? body : '',
        html_url: typeof url === 'string' ? url : undefined,
        login: typeof login === 'string' ? login : ''
    };
}
class OutOfTime extends Error {
}
/**
 * Creates or updates this name's comment; undefined when nothing was done. Never throws. Only
 * comments by the identity the token acts as are adopted: a marker copied elsewhere is left alone.
 */
async function postPrComment(report, deps) {
    const { log, context } = deps;
    const where = whereToPost(deps);
    if (!where)
        return undefined;
    const { number, token, repository, api } = where;
    const tokenRedactor = new redact/* Redactor */.pO([token]);
    const redactor = { redact: text => deps.redactor.redact(tokenRedactor.redact(text)) };
    const body = commentBody(report, context, repository, redactor);
    if (deps.dryRun || !token) {
        log.info(`Dry run: no comment is posted on pull request #${number}; it would say:`);
        for (const line of body.split('\n'))
            log.info(`  ${line}`);
        return undefined;
    }
    const { now } = deps;
    // The budget is GitHub's time: it starts once the client is loaded (seconds on a loaded runner);
    // a cancelled run's short budget counts from now, the runner's kill does too.
    const { requestMs, budgetMs } = deps.limits ?? {
        requestMs: PR_COMMENT_REQUEST_TIMEOUT_MS,
        budgetMs: deps.cancelling ? CANCEL_BUDGET_MS : PR_COMMENT_BUDGET_MS
    };
    let deadline = deps.cancelling ? now() + budgetMs : Infinity;
    const request = () => {
        const left = deadline - now();
        if (left <= 0)
            throw new OutOfTime();
        return { signal: AbortSignal.timeout(Math.min(left, requestMs)) };
    };
    const step = { now: 'read the comments of' };
    try {
        const octokit = await (0,github_api/* loadOctokit */.mV)(token, api);
        if (!deps.cancelling)
            deadline = now() + budgetMs;
        const session = { octokit, where: repository, number, request };
        return await post(session, report.name, body, token, step, { log, redactor });
    }
    catch (err) {
        const what = err instanceof OutOfTime
            ? `gave up after ${budgetMs / 1000} s.`
            : (0,github_api/* describeGitHubError */.dZ)(err, redactor, api.host, {
                403: 'the token may not write pull requests: give the job `permissions: pull-requests: write` (pull requests from forks only get a read-only token).',
                404: 'the pull request was not found with this token.'
            });
        log.warning(`Could not ${step.now} pull request #${number}: ${what} The result of the run stands.`, NOT_POSTED);
        return undefined;
    }
}
const NOT_POSTED = 'Pull request comment not posted';
/** The pull request, token, repository and API root to post with; undefined (said) when one is missing. */
function whereToPost(deps) {
    const { log, context, pullRequestNumber: number } = deps;
    if (number === undefined) {
        log.info('pr-comment: this run is not about a pull request; no comment is posted.');
        return undefined;
    }
    const notPosted = (line) => void log.warning(line, NOT_POSTED);
    const token = deps.token?.trim() ?? '';
    if (!token && !deps.dryRun)
        return notPosted('pr-comment needs `github-token` (with `pull-requests: write`): no comment is posted.');
    const repository = context.repo;
    if (!repository)
        return notPosted(`${runner_context/* CONTEXT_GAPS */.gh.repository}: no pull request comment is posted.`);
    const api = (0,github_api/* githubApiUrl */.BN)(context);
    if (typeof api === 'string')
        return notPosted(`${api}: no pull request comment is posted.`);
    return { number, token, repository, api };
}
/** The comment's text, redacted value by value (before Markdown escaping) and as a whole. */
function commentBody(report, context, repository, redactor) {
    const clean = Object.fromEntries(Object.entries(report).map(([k, v]) => [k, typeof v === 'string' ? redactor.redact(v) : v]));
    return redactor.redact(renderComment(clean, {
        run: (0,github_api/* runUrl */.Vp)(context, true),
        repository: `${context.serverUrl}/${repository.owner}/${repository.repo}`
    }));
}
async function post(s, name, body, token, step, out) {
    const { log, redactor } = out;
    const said = (action, c) => {
        const url = cleanUrl(c.html_url, redactor);
        log.info(`Pull request #${s.number}: comment ${action}${url ? `: ${url}` : '.'}`);
        return { action, commentId: c.id, url, body };
    };
    const me = await identity(s, token);
    const mine = await commentsFor(s, name, me, log);
    const ours = mine[0];
    if (ours === undefined) {
        step.now = 'create a comment on';
        const created = await write(s, { body });
        // Runs that overlap may each have created one: converge on the oldest.
        step.now = 'tidy the comments on';
        return said('created', await converge(s, name, created, body, log));
    }
    step.now = 'tidy the comments on';
    for (const extra of mine.slice(1))
        await remove(s, extra.id);
    if (ours.body === body) {
        log.info(`Pull request #${s.number}: comment ${ours.id} already says this.`);
        return { action: 'unchanged', commentId: ours.id, url: cleanUrl(ours.html_url, redactor), body };
    }
    step.now = 'update the comment on';
    return said('updated', await write(s, { body, id: ours.id }));
}
/**
 * Who the token acts as: the workflow's (`ghs_`, which cannot ask) is `github-actions[bot]`,
 * another is asked. A wrong guess costs one comment created and removed: its author then counts.
 */
async function identity(s, token) {
    if (token.startsWith('ghs_'))
        return WORKFLOW_TOKEN_LOGIN;
    try {
        const me = await s.octokit.request('GET /user', { request: s.request() });
        const login = me.data.login;
        return typeof login === 'string' ? login : WORKFLOW_TOKEN_LOGIN;
    }
    catch (err) {
        if (err instanceof OutOfTime)
            throw err;
        return WORKFLOW_TOKEN_LOGIN;
    }
}
/** This name's comments by `me`, oldest first; a marker in someone else's is said once. */
async function commentsFor(s, name, me, log) {
    const mine = [];
    const others = new Set();
    for (let page = 1; page <= MAX_PAGES; page++) {
        const listed = await s.octokit.rest.issues.listComments({
            ...s.where,
            issue_number: s.number,
            per_page: PER_PAGE,
            page,
            request: s.request()
        });
        const data = listed.data;
        if (!Array.isArray(data))
            throw new github_api/* UnexpectedAnswerError */.qx(listed.status, 'a list of comments');
        for (const c of data.map(asComment)) {
            if (!c || !isCommentFor(c.body, name))
                continue;
            if (c.login === me)
                mine.push(c);
            else
                others.add((0,inert/* sanitizeServerText */.c8)(c.login || 'someone', 60));
        }
        if (data.length < PER_PAGE)
            break;
    }
    if (others.size && log) {
        log.info(`Pull request #${s.number}: a comment by ${[...others].join(', ')} carries the marker of "${name}"; ` +
            `only comments by ${me}, who this token acts as, are updated, so it is left as it is.`);
    }
    return mine.sort((a, b) => a.id - b.id);
}
/** After a create: the oldest of this name's comments by the same author stays, the others go. */
async function converge(s, name, created, body, log) {
    const mine = await commentsFor(s, name, created.login || WORKFLOW_TOKEN_LOGIN);
    const kept = mine[0] ?? created;
    const extras = mine.slice(1);
    if (!mine.some(c => c.id === created.id) && kept.id !== created.id)
        extras.push(created);
    for (const extra of extras)
        await remove(s, extra.id);
    if (extras.length) {
        log.info(`Pull request #${s.number}: another run posted the comment of "${name}" at the same time; kept comment ${kept.id}, removed ${extras.length}.`);
    }
    return kept.id === created.id || kept.body === body ? kept : write(s, { body, id: kept.id });
}
async function write(s, what) {
    const answer = what.id === undefined
        ? await s.octokit.rest.issues.createComment({
            ...s.where,
            issue_number: s.number,
            body: what.body,
            request: s.request()
        })
        : await s.octokit.rest.issues.updateComment({
            ...s.where,
            comment_id: what.id,
            body: what.body,
            request: s.request()
        });
    const comment = asComment(answer.data);
    if (!comment)
        throw new github_api/* UnexpectedAnswerError */.qx(answer.status, 'a comment');
    return comment;
}
async function remove(s, id) {
    try {
        await s.octokit.rest.issues.deleteComment({ ...s.where, comment_id: id, request: s.request() });
    }
    catch (err) {
        // Another run removed it first: what was to happen has happened.
        if (err.status !== 404)
            throw err;
    }
}
/** GitHub's link to the comment, fit for one log line. */
function cleanUrl(url, redactor) {
    return url && /^https?:\/\/\S+$/.test(url)
        ? (0,inert/* sanitizeServerText */.c8)(redactor.redact(url), 300)
        : undefined;
}


/***/ })

};
