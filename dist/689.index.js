export const id = 689;
export const ids = [689];
export const modules = {

/***/ 689:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runSweep: () => (/* binding */ runSweep)
});

// EXTERNAL MODULE: ./src/control-plane/redact.ts
var control_plane_redact = __webpack_require__(7889);
// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
// EXTERNAL MODULE: ./src/github/api.ts + 1 modules
var github_api = __webpack_require__(5313);
;// CONCATENATED MODULE: ./src/github/pull-state.ts
// Whether a pull request is closed, for `command: sweep`: read with `github-token` from the
// `repository` input's (the workflow's by default), under the token's rule.



/** One request's longest wait; a read that takes longer has failed. */
const PULL_READ_TIMEOUT_MS = 10_000;
/** A read that says nothing of the pull request asked for. */
const failedRead = (reason) => ({ kind: 'failed', reason });
/** The reader of `repository`'s pull requests, or why none can read them. */
function githubPullStates(token, context, repository, redactor) {
    const api = (0,github_api/* githubApiUrl */.BN)(context);
    if (typeof api === 'string')
        return api;
    const [owner, repo] = repository.split('/');
    const tokenRedactor = new control_plane_redact/* Redactor */.pO([token]);
    const redact = { redact: text => redactor.redact(tokenRedactor.redact(text)) };
    let octokit;
    return {
        where: `GitHub ${repository}`,
        mark: '#',
        read: async (number) => {
            try {
                octokit ??= (0,github_api/* loadOctokit */.mV)(token, api);
                const { data } = await (await octokit).rest.pulls.get({
                    owner,
                    repo,
                    pull_number: number,
                    request: { signal: AbortSignal.timeout(PULL_READ_TIMEOUT_MS) }
                });
                return githubState(data, number, repository);
            }
            catch (err) {
                if (err?.status === 404)
                    return { kind: 'absent' };
                const reason = (0,github_api/* describeGitHubError */.dZ)(err, redact, api.host, {
                    403: 'the token may not read pull requests: give the job `permissions: pull-requests: read`.'
                });
                return failedRead(reason);
            }
        }
    };
}
/** The answer's state, when it is the pull request asked for: another one's says nothing of it. */
function githubState(data, number, repository) {
    const d = data;
    const repo = d?.base?.repo?.full_name;
    if (d?.number !== number)
        return failedRead(`GitHub answered for pull request ${said(d?.number)}, not #${number}`);
    if (typeof repo !== 'string' || repo.toLowerCase() !== repository.toLowerCase())
        return failedRead(`GitHub answered for repository ${said(repo)}, not ${repository}`);
    if (d.state === 'open')
        return { kind: 'open' };
    if (d.state === 'closed')
        return { kind: 'closed', merged: d.merged === true };
    return failedRead('GitHub answered without a pull request state');
}
/** A value of the answer in the log: `#8`, `"other/repo"`, or `none`. */
function said(v) {
    if (typeof v === 'number')
        return `#${v}`;
    return typeof v === 'string' ? `"${(0,inert/* sanitizeServerText */.c8)(v, 100)}"` : 'none';
}

// EXTERNAL MODULE: ./src/interface/ending.ts
var ending = __webpack_require__(7472);
// EXTERNAL MODULE: ./src/commands/command.ts
var command = __webpack_require__(3155);
// EXTERNAL MODULE: ./src/control-plane/base-url.ts
var base_url = __webpack_require__(1937);
// EXTERNAL MODULE: ./src/net/request.ts
var request = __webpack_require__(2170);
;// CONCATENATED MODULE: ./src/commands/sweep/pull-requests.ts
// Where the sweep reads whether a pull (merge) request is closed: GitHub (src/github/pull-state.ts)
// or GitLab (here, through `CI_API_V4_URL` with a token that may read merge requests). A state
// that cannot be read is never guessed: the deployment stays, and the log says why.





/** The start of a merge request's answer read at most: its `state` is near the top. */
const MAX_MERGE_REQUEST_BODY = 256 * 1024;
/** Merge requests of the pipeline's project (or `project`, a path), through the one request. */
function gitlabPullStates(context, project, signal) {
    const problem = (0,base_url/* baseUrlProblem */.aS)(context.apiUrl);
    if (problem)
        return `CI_API_V4_URL is refused: ${problem}`;
    const id = encodeURIComponent(project ?? context.projectId);
    const redactor = new control_plane_redact/* Redactor */.pO([context.token]);
    const root = context.apiUrl.replace(/\/+$/, '');
    return {
        where: `GitLab project ${(0,inert/* sanitizeServerText */.c8)(project ?? context.projectId, 200)}`,
        mark: '!',
        read: async (iid) => {
            try {
                const answer = await (0,request/* request */.E)({
                    url: new URL(`${root}/projects/${id}/merge_requests/${iid}`),
                    method: 'GET',
                    headers: { 'PRIVATE-TOKEN': context.token, Accept: 'application/json' },
                    timeoutMs: PULL_READ_TIMEOUT_MS,
                    maxBody: MAX_MERGE_REQUEST_BODY,
                    ...(signal ? { signal } : {})
                });
                if (answer.status === 404)
                    return { kind: 'absent' };
                if (answer.status < 200 || answer.status > 299) {
                    const said = (0,inert/* sanitizeServerText */.c8)(redactor.redact(answer.body), 200);
                    return failedRead(`GitLab answered ${answer.status}: ${said}`);
                }
                const asked = project ? { path: project } : { id: context.projectId };
                return gitlabState(JSON.parse(answer.body), iid, asked);
            }
            catch (err) {
                const text = err instanceof Error ? err.message : String(err);
                return failedRead(`GitLab could not be read: ${(0,inert/* sanitizeServerText */.c8)(redactor.redact(text), 200)}`);
            }
        }
    };
}
/** GitLab's merge request state, when the answer is the one asked for (iid, project or path). */
function gitlabState(body, iid, asked) {
    const mr = body;
    if (mr?.iid !== iid)
        return failedRead(`GitLab answered for merge request ${pull_requests_said(mr?.iid, '!')}, not !${iid}`);
    if ('id' in asked && String(mr.project_id) !== asked.id)
        return failedRead(`GitLab answered for project ${pull_requests_said(mr.project_id)}, not ${asked.id}`);
    const full = mr.references?.full;
    if ('path' in asked &&
        (typeof full !== 'string' || full.toLowerCase() !== `${asked.path}!${iid}`.toLowerCase()))
        return failedRead(`GitLab answered for ${pull_requests_said(full)}, not ${asked.path}!${iid}`);
    const state = mr.state;
    if (state === 'opened' || state === 'locked')
        return { kind: 'open' };
    if (state === 'closed' || state === 'merged')
        return { kind: 'closed', merged: state === 'merged' };
    return failedRead('GitLab answered without a merge request state');
}
/** A value of the answer in the log: `!8`, `41`, `"group/other!8"`, or `none`. */
function pull_requests_said(v, mark = '') {
    if (typeof v === 'number')
        return `${mark}${v}`;
    return typeof v === 'string' ? `"${(0,inert/* sanitizeServerText */.c8)(v, 100)}"` : 'none';
}

// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/interface/outcomes.ts
var outcomes = __webpack_require__(5686);
;// CONCATENATED MODULE: ./src/commands/sweep/summary.ts
// The sweep's job summary: every matching deployment, its fate and why, as one table.


const FATE = {
    deleted: '🗑️ deleted',
    'would-delete': '📝 would be deleted',
    kept: '✅ kept',
    'held-back': '⚠️ held back',
    gone: '✅ already gone',
    'being-deleted': '⏳ already being deleted',
    failed: '❌ delete failed'
};
/** The headline: the outcome's (outcomes.ts), with the counts. */
function headline(r, outcome) {
    const words = outcomes/* OUTCOMES */.i[outcome].headline;
    if (outcome === 'swept')
        return `${words} ${r.swept.length} of ${r.rows.length} matching`;
    if (outcome === 'dry-run')
        return `${words}, ${r.rows.filter(x => x.fate === 'would-delete').length} would be deleted`;
    return words;
}
/** The summary as markdown: headline, the skipped criterion, the table, the failure. */
function renderSweepSummary(r, o) {
    const out = [`### ${headline(r, o.outcome)}: \`${o.pattern}\``, ''];
    if (r.closedSkipped)
        out.push(`Closed pull requests: not checked (${r.closedSkipped}).`, '');
    if (!r.rows.length)
        out.push('No deployment matches.');
    else {
        out.push('| Deployment | Last change | Fate | Why |', '|---|---|---|---|');
        for (const row of r.rows)
            out.push(line(row, o.now));
    }
    if (o.error)
        out.push('', '**What failed**', '', '```', o.error, '```');
    return out.join('\n') + '\n';
}
function line(row, now) {
    const age = Number.isFinite(row.updatedMs)
        ? `${(0,duration/* formatAge */.nV)(Math.max(0, now - row.updatedMs))} ago`
        : cell(row.updatedAt);
    return `| \`${cell(row.name)}\` | ${age} | ${FATE[row.fate]} | ${cell(row.why.join('; '))} |`;
}
function cell(v) {
    return v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

// EXTERNAL MODULE: ./src/control-plane/errors.ts
var errors = __webpack_require__(4007);
// EXTERNAL MODULE: ./src/inputs/sweep-names.ts
var sweep_names = __webpack_require__(6740);
// EXTERNAL MODULE: ./src/commands/delete/delete.ts
var delete_delete = __webpack_require__(6725);
// EXTERNAL MODULE: ./src/commands/deploy/steps/conclude.ts
var conclude = __webpack_require__(671);
;// CONCATENATED MODULE: ./src/commands/sweep/choose.ts
// Which of the matching deployments the sweep deletes, and why: pure. A deployment goes when any
// criterion says so; a state that could not be read says nothing.

const BEING_DELETED = 'AWAITING_DELETE';
/** Each candidate with the reasons it goes (`would-delete`) or stays (`kept`), oldest first. */
function choose(candidates, c) {
    const rows = [...candidates].sort((a, b) => age(a) - age(b)).map(d => decide(d, c));
    if (c.maxCount === undefined)
        return rows;
    const staying = rows.filter(r => r.fate === 'kept');
    const over = staying.length - c.maxCount;
    for (const r of staying.slice(0, Math.max(0, over))) {
        r.fate = 'would-delete';
        r.why = [
            `beyond the count: only the newest ${c.maxCount} of the ${staying.length} that the other criteria keep stay`
        ];
    }
    return rows;
}
/** The sort key, oldest first: a last change that is no date counts as the newest (it stays). */
function age(d) {
    return Number.isFinite(d.updatedMs) ? d.updatedMs : Infinity;
}
function decide(d, c) {
    if (d.status === BEING_DELETED)
        return { ...d, fate: 'being-deleted', why: ['already being deleted'] };
    const goes = [];
    const stays = [];
    const pull = d.pr === undefined ? undefined : c.pulls?.get(d.pr);
    const pr = `pull request ${c.mark}${d.pr}`;
    if (pull?.kind === 'closed')
        goes.push(`${pr} is ${pull.merged ? 'merged' : 'closed'}`);
    else if (pull?.kind === 'open')
        stays.push(`${pr} is open`);
    else if (pull?.kind === 'absent')
        stays.push(`no ${pr}`);
    else if (pull?.kind === 'failed')
        stays.push(`${pr} could not be read`);
    if (c.maxAgeMs !== undefined) {
        const age = c.now - d.updatedMs;
        if (Number.isFinite(age) && age > c.maxAgeMs)
            goes.push(`last change ${(0,duration/* formatAge */.nV)(age)} ago, older than ${(0,duration/* formatAge */.nV)(c.maxAgeMs)}`);
        else if (Number.isFinite(age))
            stays.push(`last change ${(0,duration/* formatAge */.nV)(Math.max(0, age))} ago`);
        else
            stays.push('no readable last change');
    }
    return goes.length
        ? { ...d, fate: 'would-delete', why: goes }
        : { ...d, fate: 'kept', why: stays.length ? stays : ['no criterion says it goes'] };
}

;// CONCATENATED MODULE: ./src/commands/sweep/sweep.ts
// `command: sweep`: the deployments whose whole name matches `sweep-names` are judged by the
// criteria, and those that go deleted one by one, each re-read right before its delete and held
// back unless unchanged since the listing. Nothing else is ever touched.






async function sweep(o, deps, source) {
    const pattern = o.sweepNames;
    const result = { rows: [], swept: [] };
    if (source && 'skipped' in source)
        result.closedSkipped = source.skipped;
    try {
        const candidates = await deps.log.group('Find the matching deployments', () => listMatching(pattern, deps));
        const pulls = source && 'read' in source ? await readPulls(candidates, source, deps) : undefined;
        result.rows = choose(candidates, {
            pulls,
            mark: source && 'read' in source ? source.mark : '#',
            maxAgeMs: o.sweepMaxAge,
            maxCount: o.sweepMaxCount,
            now: deps.clock.now()
        });
        await deps.log.group('Delete', () => deleteGoing(o, deps, result));
    }
    catch (err) {
        if (!(err instanceof errors/* ControlPlaneError */.Cj))
            throw err;
        result.failure = { message: err.message, title: 'Sweep failed' };
    }
    return result;
}
/** Every deployment whose whole name matches: the list read to its end, filtered by a part of the name. */
async function listMatching(pattern, deps) {
    const found = [];
    let listed = 0;
    for await (const d of deps.client.iterateDeployments({ name_contains: pattern.literal })) {
        listed++;
        const m = (0,sweep_names/* matchName */.h)(pattern, d.name);
        if (m)
            found.push(candidateOf(d, m.pr));
    }
    deps.log.info(`${listed} ${listed === 1 ? 'deployment has' : 'deployments have'} "${pattern.literal}" in the name; ${found.length} match ${pattern.text} as a whole.`);
    return found;
}
function candidateOf(d, pr) {
    return {
        id: d.id,
        name: d.name,
        status: d.status,
        updatedAt: d.updated_at,
        updatedMs: Date.parse(d.updated_at),
        latestRevisionId: d.latest_revision_id,
        ...(pr === undefined ? {} : { pr })
    };
}
/** The state of each pull request the names hold, read once each; a failed read is a warning. */
async function readPulls(candidates, source, deps) {
    const numbers = [...new Set(candidates.flatMap(c => (c.pr === undefined ? [] : [c.pr])))];
    const states = new Map();
    if (!numbers.length)
        return states;
    const title = `Read ${numbers.length} pull request states from ${source.where}`;
    await deps.log.group(title, async () => {
        for (const n of numbers.sort((a, b) => a - b)) {
            if (deps.signal?.aborted)
                break;
            const state = await source.read(n);
            states.set(n, state);
            const which = `${source.mark}${n}`;
            if (state.kind === 'failed')
                deps.log.warning(`Pull request ${which}: ${state.reason}. Its deployments are kept on this criterion.`, 'Pull request not read');
            else
                deps.log.info(`Pull request ${which}: ${state.kind === 'closed' ? (state.merged ? 'merged' : 'closed') : state.kind === 'open' ? 'open' : 'not found'}.`);
        }
    });
    return states;
}
/** Deletes, oldest first, those that go; a dry run only says so. */
async function deleteGoing(o, deps, result) {
    const going = result.rows.filter(r => r.fate === 'would-delete');
    if (!going.length) {
        deps.log.info('Nothing to delete.');
        return;
    }
    for (const row of going) {
        if (o.dryRun) {
            deps.log.info(`Dry run: would delete "${row.name}": ${row.why.join('; ')}.`);
            continue;
        }
        if (deps.signal?.aborted)
            break;
        await deleteOne(o, deps, row, result);
    }
    if (o.dryRun)
        deps.log.info('Dry run: nothing was deleted.');
}
/** Re-reads one deployment, and deletes it when it is as listed. */
async function deleteOne(o, deps, row, result) {
    const { client, log } = deps;
    let now;
    try {
        now = await client.getDeployment(row.id);
    }
    catch (err) {
        if (err instanceof errors/* ApiError */.hD && err.status === 404)
            return gone(row, deps);
        if (!(err instanceof errors/* ControlPlaneError */.Cj))
            throw err;
        const why = `could not be read again before its delete: ${(0,conclude/* firstLine */.T)(err)}`;
        return holdBack(row, why, `"${row.name}" ${why}. It is kept; a later sweep tries again.`, log);
    }
    const changed = changeSince(row, now, o.sweepNames);
    if (changed) {
        const line = `Held back "${row.name}": it changed since the listing (${changed}); it is kept.`;
        return holdBack(row, 'it changed since the listing', line, log);
    }
    try {
        const answer = await (0,delete_delete/* deleteReconciled */.g)(deps, row.id, o.deleteTracingProject);
        if (answer === 'not-found')
            return gone(row, deps);
    }
    catch (err) {
        if (!(err instanceof errors/* ControlPlaneError */.Cj))
            throw err;
        row.fate = 'failed';
        row.why.push((0,conclude/* firstLine */.T)(err));
        result.failure ??= { message: err.message, title: 'Sweep delete failed' };
        return;
    }
    row.fate = 'deleted';
    // As the re-read named it (the same name as listed: changeSince holds it).
    result.swept.push(now.name);
    const project = o.deleteTracingProject ? ' and its tracing project' : '';
    log.info(`Deleted "${row.name}" (${row.id})${project}: ${row.why.join('; ')}.`);
}
/** How the re-read differs from the listing: another id or name (a misnamed entry), a change. */
function changeSince(row, now, pattern) {
    if (now.id !== row.id)
        return `read again, it answers as id ${(0,inert/* sanitizeServerText */.c8)(now.id, 80)}`;
    if (now.name !== row.name || !(0,sweep_names/* matchName */.h)(pattern, now.name))
        return `read again, it is named "${(0,inert/* sanitizeServerText */.c8)(now.name, 200)}"`;
    if (now.updated_at !== row.updatedAt || now.latest_revision_id !== row.latestRevisionId)
        return `last change ${(0,inert/* sanitizeServerText */.c8)(now.updated_at, 80)}, latest revision ${(0,inert/* sanitizeServerText */.c8)(now.latest_revision_id ?? 'none', 80)}: someone may deploy it now`;
    return undefined;
}
function holdBack(row, why, line, log) {
    row.fate = 'held-back';
    row.why.push(why);
    log.warning(line, 'Deployment held back');
}
function gone(row, deps) {
    row.fate = 'gone';
    row.why.push('it was gone before its delete arrived');
    deps.log.info(`"${row.name}" was already gone.`);
}

;// CONCATENATED MODULE: ./src/commands/sweep/run.ts






async function runSweep(o, context) {
    const { port, log, redactor, clock } = context;
    const say = port.say;
    const source = pullSource(port, o, redactor, say);
    if (source && 'skipped' in source)
        log.notice(`${say('sweep-closed')}: ${source.skipped}; no deployment is deleted for a closed pull request.`, 'Closed pull requests not checked');
    const r = await sweep(o, (0,command/* stepDeps */.DJ)(context), source);
    const outputs = { swept: JSON.stringify(r.swept) };
    const summary = (outcome, error) => renderSweepSummary(r, {
        outcome,
        pattern: o.sweepNames.text,
        now: clock.now(),
        ...(error ? { error } : {})
    });
    if (r.failure) {
        const outcome = port.signal.aborted ? 'cancelled' : 'error';
        const error = redactor.redact((0,ending/* failureText */.kY)(r.failure));
        return { outcome, failure: r.failure, outputs, summary: summary(outcome, error) };
    }
    const held = r.rows.filter(x => x.fate === 'held-back').length;
    const done = o.dryRun
        ? `Done: dry run, ${r.rows.filter(x => x.fate === 'would-delete').length} would be deleted.`
        : `Done: ${r.swept.length} deleted, ${held} held back, ${r.rows.length} matching.`;
    const outcome = o.dryRun ? 'dry-run' : 'swept';
    return { outcome, outputs, summary: summary(outcome), done };
}
/** Where the closed criterion reads pull requests; undefined when it is off. */
function pullSource(port, o, redactor, say) {
    if (!(o.sweepClosed ?? o.sweepNames.hasPr))
        return undefined;
    const reader = pullReader(port, o, redactor, say);
    return typeof reader === 'string' ? { skipped: reader } : reader;
}
/** The reader of the pull (merge) requests' states, or why there is none. */
function pullReader(port, o, redactor, say) {
    const gitlab = port.gitlab;
    if (gitlab) {
        if (!gitlab.token)
            return 'CONTROL_PLANE_GITLAB_TOKEN is not set (a job token cannot read merge requests)';
        port.mask(gitlab.token);
        const project = o.repositoryExplicit ? o.repository : undefined;
        return gitlabPullStates({ ...gitlab, token: gitlab.token }, project, port.signal);
    }
    if (!port.github)
        return 'not running on GitHub Actions or GitLab CI, no pull request state can be read';
    if (!o.githubToken)
        return `${say('github-token')} is empty`;
    if (!o.repository)
        return `no repository is known (set ${say('repository')})`;
    return githubPullStates(o.githubToken, port.github, o.repository, redactor);
}


/***/ }),

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


/***/ })

};
