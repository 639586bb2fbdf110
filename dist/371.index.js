export const id = 371;
export const ids = [371];
export const modules = {

/***/ 8371:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  planOutputs: () => (/* binding */ planOutputs),
  runPlan: () => (/* binding */ runPlan)
});

// EXTERNAL MODULE: ./src/control-plane/errors.ts
var errors = __webpack_require__(4007);
// EXTERNAL MODULE: ./src/manifest/entry.ts
var entry = __webpack_require__(5449);
// EXTERNAL MODULE: ./src/runner/git.ts + 1 modules
var git = __webpack_require__(1625);
;// CONCATENATED MODULE: ./src/manifest/git.ts
// What the git checkout in the workspace says for a plan: its commit, whether it is shallow, whether
// it holds a commit, the files that differ between a commit and HEAD, and a file as a commit had it.
// Fixed arguments, no shell, `--no-optional-locks` (another step may use the checkout); a git that
// fails says "unknown", and unknown plans a deploy.

const git_git = (cwd, args) => (0,git/* readGit */.l)(cwd, args, 30_000);
async function readCheckout(dir) {
    const head = (await git_git(dir, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim();
    if (!head)
        return undefined;
    const shallow = (await git_git(dir, ['rev-parse', '--is-shallow-repository']))?.trim() === 'true';
    return { dir, head, shallow };
}
const COMMIT = /^[0-9a-f]{7,64}$/i;
/** Whether the checkout holds this commit (a shallow one may not). */
async function hasCommit(c, sha) {
    if (!COMMIT.test(sha))
        return false;
    return (await git_git(c.dir, ['cat-file', '-e', `${sha}^{commit}`])) !== undefined;
}
/** The files (from the workspace) that differ between `from` and HEAD; undefined when git fails. */
async function changedSince(c, from) {
    if (!COMMIT.test(from))
        return undefined;
    // Renames as a deletion and an addition: both paths count.
    const out = await git_git(c.dir, [
        'diff',
        '--name-only',
        '--no-renames',
        '--relative',
        '-z',
        from,
        'HEAD'
    ]);
    return out?.split('\0').filter(Boolean);
}
/** A file (from the workspace) as commit `sha` had it; undefined when it had none. */
function fileAt(c, sha, path) {
    if (!COMMIT.test(sha))
        return Promise.resolve(undefined);
    return git_git(c.dir, ['show', `${sha}:./${path}`]);
}

// EXTERNAL MODULE: ./src/commands/command.ts
var command = __webpack_require__(3155);
// EXTERNAL MODULE: ./src/control-plane/vocabulary.ts
var vocabulary = __webpack_require__(8072);
// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
// EXTERNAL MODULE: ./src/interface/ending.ts
var ending = __webpack_require__(7472);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
;// CONCATENATED MODULE: ./src/manifest/files.ts
// An agent's files, derived from its config as the vendor's LangGraph CLI reads it: the config
// itself; each local dependency (a `dependencies` entry that starts with `.`, a folder from the
// config's folder); each graph's module (`./src/agent.py:graph`, `./src/graph.ts:graph`, or an
// object's `path`); the `env` file when `env` is a path; `auth.path`, `http.app`,
// `checkpointer.path` and the `ui` modules, each a file when it starts with `.`; and the manifest's
// `paths` (globs from the manifest's folder). A Python graph named by module (`agent.graph:g`) lives
// in a dependency, which is named already.

const isLocal = (spec) => typeof spec === 'string' && spec.startsWith('.');
/** `./src/agent.py:graph` -> `./src/agent.py`: the module's part of a `file:attribute` spec. */
function modulePart(spec) {
    return spec.split(':')[0];
}
/** The agent's files from its config's text (at `configPath`, from the workspace) and its `paths`. */
function agentFiles(configPath, config, paths) {
    const base = external_node_path_.posix.dirname(configPath);
    const at = (p) => external_node_path_.posix.normalize(external_node_path_.posix.join(base, p)).replace(/\/$/, '');
    const files = new Set([external_node_path_.posix.normalize(configPath)]);
    const folders = new Set();
    const deps = Array.isArray(config.dependencies) ? config.dependencies : [];
    for (const dep of deps)
        if (isLocal(dep))
            folders.add(at(dep));
    const graphs = isObject(config.graphs) ? Object.values(config.graphs) : [];
    for (const g of graphs) {
        const spec = isObject(g) ? g.path : g;
        if (typeof spec === 'string' && isFilePath(modulePart(spec)))
            files.add(at(modulePart(spec)));
    }
    if (isLocal(config.env))
        files.add(at(config.env));
    for (const spec of [
        field(config.auth, 'path'),
        field(config.http, 'app'),
        field(config.checkpointer, 'path'),
        ...(isObject(config.ui) ? Object.values(config.ui) : [])
    ])
        if (isLocal(spec))
            files.add(at(modulePart(spec)));
    const globs = paths.globs.map(g => external_node_path_.posix.normalize(external_node_path_.posix.join(paths.from, g)));
    // The whole workspace as a folder is every file: '.' is kept as ''.
    return {
        files: [...files],
        folders: [...folders].map(f => (f === '.' ? '' : f)),
        globs
    };
}
/** A module given as a file (`./a.py`, `src/graph.ts`), not a Python module's dotted name. */
function isFilePath(module) {
    return module.startsWith('.') || module.includes('/') || /\.[cm]?[jt]sx?$|\.py$/.test(module);
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (v, key) => (isObject(v) ? v[key] : undefined);
/** A glob as a test: `**` any run of folders, `*` and `?` within one name. */
function globTest(glob) {
    let re = '';
    for (let i = 0; i < glob.length; i++) {
        const c = glob[i];
        if (c === '*' && glob[i + 1] === '*') {
            // `**/` matches no folder too.
            const slash = glob[i + 2] === '/';
            re += slash ? '(?:.*/)?' : '.*';
            i += slash ? 2 : 1;
        }
        else if (c === '*')
            re += '[^/]*';
        else if (c === '?')
            re += '[^/]';
        else
            re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    const test = new RegExp(`^${re}$`);
    return path => test.test(path);
}
/** The files of `changed` (paths from the workspace) that are the agent's. */
function agentsChanged(files, changed) {
    const globs = files.globs.map(globTest);
    const exact = new Set(files.files);
    return changed.filter(path => exact.has(path) ||
        files.folders.some(f => f === '' || path.startsWith(`${f}/`)) ||
        globs.some(g => g(path)));
}

// EXTERNAL MODULE: ./src/manifest/read.ts + 1 modules
var read = __webpack_require__(6669);
;// CONCATENATED MODULE: ./src/manifest/changed.ts
// Whether an agent changed since the commit its deployment's active revision built: its files
// (files.ts) differ between that commit and the checkout's, or its manifest entry does (the
// agent's `config` and `paths` and that environment's settings, as the manifest at that commit had
// them). What cannot be compared (no checkout, a commit the checkout lacks) is unknown, said so.







/** JSON with its keys sorted, so that an entry's digest does not depend on their order. */
function canonical(v) {
    if (Array.isArray(v))
        return `[${v.map(canonical).join(',')}]`;
    if (typeof v === 'object' && v !== null)
        return `{${Object.keys(v)
            .sort()
            .map(k => `${JSON.stringify(k)}:${canonical(v[k])}`)
            .join(',')}}`;
    return JSON.stringify(v);
}
/** The digest of an agent's entry and one environment's; undefined when the manifest has neither. */
function entryDigest(m, agent, environment) {
    const a = m.agents[agent];
    const env = a?.environments[environment];
    if (!a || !env)
        return undefined;
    const text = canonical({ config: a.config, paths: a.paths, environment: env });
    return (0,external_node_crypto_.createHash)('sha256').update(text).digest('hex');
}
const changed_short = (sha) => sha.slice(0, 12);
/** What of the agent changed between `commit` (its deployment's) and the checkout's HEAD. */
async function changedSinceCommit(c, agent, environment, commit) {
    const checkout = c.checkout;
    if (!checkout)
        return { unknown: 'the workspace is no git checkout, so nothing can be compared' };
    if (!(await hasCommit(checkout, commit)))
        return {
            unknown: `commit ${changed_short(commit)} is not in this checkout${checkout.shallow ? ' (a shallow one: check out with fetch-depth: 0)' : ''}`
        };
    const entry = await entryChange(c, checkout, { agent, environment, commit });
    const files = await filesChanged(c, checkout, agent, commit);
    if ('unknown' in files)
        return files;
    return { changed: [...entry, ...files.changed] };
}
/** The entry's change since `commit`, as a reason; none when it is the same. */
async function entryChange(c, checkout, { agent, environment, commit }) {
    const text = await fileAt(checkout, commit, c.manifest.file);
    const then = text === undefined ? undefined : await (0,read/* parseManifest */.N)(text, c.manifest.file);
    const before = then && 'manifest' in then ? entryDigest(then.manifest, agent, environment) : undefined;
    if (before === entryDigest(c.manifest, agent, environment))
        return [];
    return before === undefined
        ? [`its manifest entry is new since ${changed_short(commit)}`]
        : [`its manifest entry changed since ${changed_short(commit)}`];
}
/** The agent's files that changed since `commit`, each named (a few, then a count). */
async function filesChanged(c, checkout, agent, commit) {
    const a = c.manifest.agents[agent];
    const config = (0,entry/* configPath */.eQ)(c.manifest, a.config);
    let parsed;
    try {
        parsed = JSON.parse(await (0,promises_.readFile)((0,external_node_path_.resolve)(c.workspace, config), 'utf8'));
    }
    catch {
        return { unknown: `its config ${config} does not parse as JSON, so its files are not known` };
    }
    const files = agentFiles(config, parsed, { from: (0,entry/* configPath */.eQ)(c.manifest, '.'), globs: a.paths });
    const changed = await changedSince(checkout, commit);
    if (changed === undefined)
        return { unknown: `git could not compare ${changed_short(commit)} with HEAD` };
    const mine = agentsChanged(files, changed);
    if (!mine.length)
        return { changed: [] };
    const named = mine.slice(0, 3).join(', ') + (mine.length > 3 ? ` and ${mine.length - 3} more` : '');
    return {
        changed: [
            `${mine.length === 1 ? 'a file' : `${mine.length} files`} changed since ${changed_short(commit)}: ${named}`
        ]
    };
}

// EXTERNAL MODULE: ./src/commands/deploy/steps/find-deployment.ts
var find_deployment = __webpack_require__(993);
;// CONCATENATED MODULE: ./src/commands/plan/plan.ts





/** How many agents are read at once: a 50-agent plan in a few round trips, no burst. */
const AT_ONCE = 4;
/** Every agent's row, in the manifest's order; the agent input alone when it is set. */
async function plan(o, c, deps) {
    const env = o.environment;
    const keys = Object.keys(c.manifest.agents).filter(k => (o.agent === undefined || k === o.agent) && c.manifest.agents[k].environments[env]);
    const rows = new Array(keys.length);
    let next = 0;
    const worker = async () => {
        while (next < keys.length) {
            const i = next++;
            rows[i] = await planAgent(c, keys[i], env, deps);
        }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, keys.length) }, worker));
    return rows;
}
async function readDeployment(settings, deps) {
    const id = settings['deployment-id'];
    const name = settings.name;
    const d = typeof id === 'string'
        ? await (0,find_deployment/* deploymentById */.Gn)(deps.client, id.toLowerCase())
        : await (0,find_deployment/* findDeploymentByName */.X0)(deps.client, String(name), deps.say);
    if (d !== undefined && (0,ending/* stopped */.ce)(d))
        return { unclear: d.failure.message };
    if (!d)
        return {
            missing: `no deployment ${typeof id === 'string' ? `has id ${id}` : `is named "${String(name)}"`}`
        };
    const active = d.active_revision_id
        ? await deps.client.getRevision(d.id, d.active_revision_id)
        : undefined;
    return { deployment: d, active };
}
const plan_short = (sha) => sha.slice(0, 12);
const shown = (text) => (0,inert/* sanitizeServerText */.c8)(text, 200);
/** One agent's verdict. */
async function planAgent(c, agent, environment, deps) {
    const envs = c.manifest.agents[agent].environments;
    const settings = envs[environment];
    const name = String(settings.name ?? settings['deployment-id']);
    const row = { agent, environment, name };
    const read = await readDeployment(settings, deps);
    if ('missing' in read)
        return { ...row, deploy: true, why: `${read.missing}: a deploy creates it` };
    // The deploy refuses it too, and says how to choose.
    if ('unclear' in read)
        return { ...row, deploy: true, why: `unknown: ${read.unclear}` };
    const d = read.deployment;
    const commit = read.active?.source_revision_config?.repo_commit_sha ?? undefined;
    const known = { ...row, deploymentId: d.id, commit };
    if (!read.active)
        return { ...known, deploy: true, why: 'it has no active revision' };
    const from = settings['promote-from'];
    if (typeof from === 'string') {
        // Another environment of the agent, or a deployment by its name or id.
        const byId = vocabulary/* UUID_PATTERN */.JJ.test(from);
        const source = envs[from] ?? (byId ? { 'deployment-id': from } : { name: from });
        return {
            ...known,
            ...(await promotion(c, { agent, environment, commit }, read.active, source, deps))
        };
    }
    if (!commit)
        return {
            ...known,
            deploy: true,
            why: `unknown: its active revision ${read.active.id} reports no commit (${read.active.source === 'internal_source' ? 'an upload has no base to compare' : 'nothing to compare'})`
        };
    return { ...known, ...verdict(await changedSinceCommit(c, agent, environment, commit), commit) };
}
function verdict(since, commit) {
    if ('unknown' in since)
        return { deploy: true, why: `unknown: ${since.unknown}` };
    if (since.changed.length)
        return { deploy: true, why: since.changed.join('; ') };
    return { deploy: false, why: `nothing it depends on changed since ${plan_short(commit)}` };
}
/** What a revision runs, as a promotion compares it. */
function materialOf(r) {
    const c = r.source_revision_config;
    if (r.source === 'internal_source')
        return undefined;
    if (c?.repo_commit_sha)
        return `commit ${c.repo_commit_sha.toLowerCase()}`;
    if (c?.image_uri)
        return `image ${c.image_uri}`;
    return undefined;
}
/** A promotion's target: deploy when its source's active material is not what it runs. */
async function promotion(c, target, active, source, deps) {
    const read = await readDeployment(source, deps);
    const from = `its source "${String(source.name ?? source['deployment-id'])}"`;
    if ('missing' in read)
        return { deploy: false, why: `nothing to promote: ${read.missing}` };
    if ('unclear' in read)
        return { deploy: true, why: `unknown: ${read.unclear}` };
    if (!read.active)
        return { deploy: false, why: `nothing to promote: ${from} has no active revision` };
    const theirs = materialOf(read.active);
    const ours = materialOf(active);
    if (theirs === undefined || ours === undefined)
        return {
            deploy: true,
            why: `unknown: ${from} or this deployment runs an upload or reports no material`
        };
    // The entry of the target, as the target's commit had it, still counts.
    const entry = target.commit
        ? await changedSinceCommit(c, target.agent, target.environment, target.commit)
        : undefined;
    const entryChanged = entry && 'changed' in entry ? entry.changed.filter(x => x.startsWith('its manifest entry')) : [];
    if (theirs !== ours)
        return {
            deploy: true,
            why: [`${from} runs ${shown(theirs)}, this runs ${shown(ours)}`, ...entryChanged].join('; ')
        };
    if (entryChanged.length)
        return { deploy: true, why: entryChanged.join('; ') };
    return { deploy: false, why: `it runs what ${from} runs (${shown(ours)})` };
}

// EXTERNAL MODULE: ./src/interface/outcomes.ts
var outcomes = __webpack_require__(5686);
;// CONCATENATED MODULE: ./src/commands/plan/summary.ts
// The plan's job summary: every agent, its deployment, its deployed commit, its verdict and why,
// as one table. Names and reasons carry the control plane's and git's text: inert Markdown.


function renderPlanSummary(rows, environment, requests) {
    const count = rows.filter(r => r.deploy).length;
    const out = [
        `### ${outcomes/* OUTCOMES */.i.planned.headline}: ${count} of ${rows.length} to deploy to ${(0,inert/* mdCode */.xs)(environment)}`,
        ''
    ];
    if (!rows.length)
        out.push(`No agent of the manifest has the environment ${(0,inert/* mdCode */.xs)(environment)}.`);
    else {
        out.push('| Agent | Deployment | Deployed commit | Verdict | Why |', '|---|---|---|---|---|');
        for (const r of rows)
            out.push(`| ${(0,inert/* mdCode */.xs)(r.agent, 100, '\\|')} | ${(0,inert/* mdCode */.xs)(r.name, 100, '\\|')} | ${r.commit ? (0,inert/* mdCode */.xs)(r.commit.slice(0, 12), 40, '\\|') : '—'} | ${r.deploy ? '🚀 deploy' : '⏭️ skip'} | ${(0,inert/* mdText */.bC)(r.why, 500)} |`);
    }
    out.push('', `${requests} requests, nothing written.`);
    return out.join('\n') + '\n';
}

;// CONCATENATED MODULE: ./src/commands/plan/run.ts
// The plan's run: the manifest read again (run() checked it), the checkout, the plan (plan.ts),
// then its log, summary, outputs (`matrix`, `agents`) and ending: exit 0 whatever it decides.






/** The outputs of a plan: the matrix of the agents to deploy, and their keys. */
function planOutputs(rows) {
    const chosen = rows.filter(r => r.deploy);
    const include = chosen.map(r => ({ agent: r.agent, environment: r.environment, name: r.name }));
    return { matrix: JSON.stringify({ include }), agents: JSON.stringify(chosen.map(r => r.agent)) };
}
async function runPlan(o, context) {
    const { port, log } = context;
    const deps = (0,command/* stepDeps */.DJ)(context);
    const workspace = deps.workspace ?? process.cwd();
    const read = await (0,entry/* readManifest */.WI)(workspace, o.manifest);
    if ('problems' in read) {
        const failure = {
            message: read.problems.join('\n'),
            title: 'Invalid manifest',
            nothingSent: true
        };
        return { outcome: 'error', failure, outputs: {} };
    }
    const compared = { checkout: await readCheckout(workspace), workspace, manifest: read.manifest };
    if (compared.checkout?.shallow)
        log.notice('The checkout is shallow: a deployed commit it lacks cannot be compared, and plans a deploy (check out with fetch-depth: 0).', 'Shallow checkout');
    let rows;
    try {
        rows = await plan(o, compared, { client: deps.client, say: port.say });
    }
    catch (err) {
        // A read that failed (an API error, a cancel) is no verdict: the plan fails, deploying nothing.
        if (!(err instanceof errors/* ApiError */.hD) && !port.signal.aborted)
            throw err;
        const outcome = port.signal.aborted ? 'cancelled' : 'error';
        const failure = { message: err.message, title: 'Plan failed' };
        return { outcome, failure, outputs: {} };
    }
    for (const r of rows)
        log.info(`${r.agent} (${r.name}): ${r.deploy ? 'deploy' : 'skip'}: ${r.why}.`);
    const outputs = planOutputs(rows);
    const count = rows.filter(r => r.deploy).length;
    const summary = renderPlanSummary(rows, o.environment, context.client.requestCount);
    const done = `Done: ${count} of ${rows.length} agents to deploy to ${o.environment}.`;
    return { outcome: 'planned', outputs, summary, done };
}


/***/ })

};
