export const id = 146;
export const ids = [146];
export const modules = {

/***/ 146:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  evaluateDeployed: () => (/* binding */ evaluateDeployed),
  evaluateSource: () => (/* binding */ evaluateSource),
  gateFor: () => (/* binding */ gateFor),
  sayVerdict: () => (/* binding */ sayVerdict)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/health/verify/agent-call.ts
var agent_call = __webpack_require__(3040);
// EXTERNAL MODULE: ./src/health/verify/retry.ts
var verify_retry = __webpack_require__(5892);
// EXTERNAL MODULE: ./src/health/verify/run-end.ts
var run_end = __webpack_require__(8343);
// EXTERNAL MODULE: ./src/health/verify/smoke.ts + 1 modules
var smoke = __webpack_require__(5243);
;// CONCATENATED MODULE: ./src/evaluate/run-examples.ts




/** Every example's run, in the examples' order; those not started by the deadline errored. */
async function runExamples(o) {
    const runs = new Array(o.examples.length);
    let next = 0;
    let done = 0;
    const worker = async () => {
        while (next < o.examples.length) {
            const i = next++;
            runs[i] = await runOne(o, o.examples[i]);
            o.onRun?.(runs[i], ++done);
        }
    };
    const workers = Math.max(1, Math.min(o.concurrency, o.examples.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return runs;
}
async function runOne(o, example) {
    const startedAt = o.clock.now();
    const left = o.deadline - startedAt;
    const errored = (error) => ({
        example,
        status: 'error',
        error: o.mask(error),
        startedAt,
        endedAt: o.clock.now()
    });
    if (o.signal.aborted)
        return errored('cancelled');
    if (left <= 0)
        return errored('not run: the timeout came first');
    const request = { assistant_id: o.assistant, input: example.inputs, on_completion: 'delete' };
    const send = () => o.call({
        method: 'POST',
        path: '/runs/wait',
        body: request,
        signal: (0,agent_call/* bounded */.Mm)(o.signal, o.deadline - o.clock.now())
    });
    const retry = {
        clock: o.clock,
        deadline: o.deadline,
        intervalMs: o.intervalMs ?? 5000,
        signal: o.signal
    };
    const tried = await (0,verify_retry/* withRetries */.LH)(send, retry);
    if (o.signal.aborted)
        return errored('cancelled');
    const { last } = tried;
    if (last.kind === 'lost')
        return errored(`${(0,agent_call/* noAnswer */.qE)(last.error)}${(0,verify_retry/* triesText */.X9)(tried)}`);
    const { status, body } = last.answer;
    if ((0,agent_call/* isAuthStatus */.DD)(status))
        return errored(`/runs/wait answered ${status}: not allowed with the key sent`);
    const notARun = (0,smoke/* notARunEnd */.Vd)(last.answer);
    if (notARun !== undefined)
        return errored(`${(0,verify_retry/* describeAnswer */.O1)('/runs/wait', { ...tried, last })}, ${notARun}`);
    const run = (0,run_end/* runOf */.n)(status, body);
    if (run.status === 'error')
        return errored(`the run raised: ${run.text.slice(0, 200)}`);
    return { example, status: 'ok', output: run.output, startedAt, endedAt: o.clock.now() };
}

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
// EXTERNAL MODULE: ./src/evaluate/path.ts
var path = __webpack_require__(9088);
;// CONCATENATED MODULE: ./src/evaluate/score.ts
// The scores of the evaluators scored here: 0 or 1 per example, from the run's output (its value
// at `path`) against `value` or the example's reference outputs; `latency` from the run's time.


/** The score of one evaluator scored here, for one example that ran. */
function scoreHere(e, run) {
    if (e.type === 'latency')
        return run.endedAt - run.startedAt <= (e.latencyMs ?? 0) ? 1 : 0;
    const actual = e.path === undefined ? { value: run.output } : (0,path/* valueAtPath */.W)(run.output, e.path);
    const expected = e.reference !== undefined
        ? (0,path/* valueAtPath */.W)(run.example.outputs ?? {}, e.reference)
        : { value: e.value };
    if (actual === undefined || expected === undefined)
        return 0;
    return compare(e.type, actual.value, expected.value) ? 1 : 0;
}
/** A value as text: a text as it is, anything else as JSON. */
const textOf = (v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
function compare(type, actual, expected) {
    if (type === 'equals')
        return (0,external_node_util_.isDeepStrictEqual)(actual, expected);
    if (type === 'contains') {
        if (Array.isArray(actual))
            return actual.some(item => (0,external_node_util_.isDeepStrictEqual)(item, expected));
        return textOf(actual).includes(textOf(expected));
    }
    try {
        return new RegExp(textOf(expected), 'u').test(textOf(actual));
    }
    catch {
        return false;
    }
}

;// CONCATENATED MODULE: ./src/evaluate/verdict.ts
const round = (x) => Math.round(x * 10_000) / 10_000;
const mean = (xs) => xs.length === 0 ? null : round(xs.reduce((a, b) => a + b, 0) / xs.length);
function keyScores(j, key, pass) {
    const values = [...j.scores.values()].flatMap(s => (s.has(key) ? [s.get(key)] : []));
    const t = j.evaluation.thresholds.get(key);
    const base = j.baseline instanceof Map
        ? [...j.baseline.values()].flatMap(s => (s.has(key) ? [s.get(key)] : []))
        : [];
    return {
        mean: mean(values),
        pass_rate: mean(values.map(v => (v >= pass ? 1 : 0))),
        n: values.length,
        threshold: t
            ? {
                ...(t.mean === undefined ? {} : { mean: t.mean }),
                ...(t.passRate === undefined ? {} : { 'pass-rate': t.passRate })
            }
            : null,
        baseline: mean(base)
    };
}
/** The examples scoring lower than in the baseline, on any key both scored. */
function regressionsOf(scores, baseline) {
    const out = [];
    for (const [exampleId, now] of scores) {
        const before = baseline.get(exampleId);
        if (!before)
            continue;
        const keys = [...now].flatMap(([key, score]) => {
            const b = before.get(key);
            return b !== undefined && score < b ? [{ key, score, baseline: b }] : [];
        });
        if (keys.length > 0)
            out.push({ exampleId, keys });
    }
    return out;
}
/** Why a threshold does not hold, or undefined when it does. */
function missed(key, s, t) {
    if (s.n === 0)
        return undefined;
    const low = [];
    if (t.mean !== undefined && s.mean < t.mean)
        low.push(`mean ${s.mean} < ${t.mean}`);
    if (t.passRate !== undefined && s.pass_rate < t.passRate)
        low.push(`pass rate ${s.pass_rate} < ${t.passRate}`);
    return low.length > 0 ? `${key}: ${low.join(', ')}` : undefined;
}
const listed = (ids) => ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
/** Why the evaluation cannot tell (each cause), or none. */
function unknowns(j, scores) {
    const out = [];
    const { maxErrors, baseline } = j.evaluation;
    if (j.errors.length > maxErrors)
        out.push(`${j.errors.length} ${j.errors.length === 1 ? 'example' : 'examples'} errored (max-errors ${maxErrors}): ${listed(j.errors.map(e => `${e.exampleId} (${e.error})`))}`);
    for (const l of j.late)
        out.push(`the feedback ${l.key} did not come in time for ${l.missing} ${l.missing === 1 ? 'example' : 'examples'}`);
    for (const key of j.evaluation.thresholds.keys())
        if (scores[key].n === 0 && !j.late.some(l => l.key === key))
            out.push(`${key} has no score to hold to its threshold`);
    if (baseline && j.baseline === 'none')
        out.push(`no passing experiment of deployment "${baseline.deployment}" on this dataset to compare with (baseline)`);
    return out;
}
/** The verdict of what the examples scored. */
function judge(j) {
    const scores = Object.fromEntries(j.evaluation.evaluators.map(e => [e.key, keyScores(j, e.key, e.pass)]));
    const regressions = j.baseline instanceof Map ? regressionsOf(j.scores, j.baseline) : [];
    const unknown = unknowns(j, scores);
    if (unknown.length > 0)
        return { verdict: 'inconclusive', reasons: unknown, scores, regressions };
    const reasons = [...j.evaluation.thresholds].flatMap(([key, t]) => missed(key, scores[key], t) ?? []);
    const max = j.evaluation.baseline?.maxRegressions ?? 0;
    if (j.evaluation.baseline && regressions.length > max)
        reasons.push(`${regressions.length} ${regressions.length === 1 ? 'example' : 'examples'} regressed against the baseline (max-regressions ${max}): ${listed(regressions.map(r => `${r.exampleId} (${r.keys.map(k => `${k.key} ${k.baseline} → ${k.score}`).join(', ')})`))}`);
    return { verdict: reasons.length > 0 ? 'failed' : 'passed', reasons, scores, regressions };
}

;// CONCATENATED MODULE: ./src/evaluate/gate.ts
// The evaluation gate on one revision: its examples (local, or the dataset's) run on its agent
// server, scored here and, for a dataset, recorded as a LangSmith experiment whose dataset
// evaluators' feedback is waited for within the deadline; the baseline compared; the verdict.





/**
 * The experiment's name: the deployment and revision, when, and a few random characters (a name
 * is unique in the workspace: two runs in one second must not collide).
 */
const experimentName = (j, at) => `${j.deploymentName} ${j.revisionId.slice(0, 8)} ${new Date(at).toISOString().replace(/\.\d+Z$/, 'Z')} ${(0,external_node_crypto_.randomBytes)(2).toString('hex')}`;
function metadataOf(g, verdict) {
    const j = g.judging;
    return {
        deployment_id: j.deploymentId,
        revision_id: j.revisionId,
        ...(j.commit ? { commit: j.commit } : {}),
        ...(j.sourceDigest ? { source_digest: j.sourceDigest } : {}),
        evaluation_digest: g.evaluation.digest,
        verdict
    };
}
/** The scores given here, by example id, for the examples that ran. */
function scoresHere(g, runs) {
    const here = g.evaluation.evaluators.filter(e => e.type !== 'langsmith');
    return new Map(runs
        .filter(r => r.status === 'ok')
        .map(r => [r.example.id, new Map(here.map(e => [e.key, scoreHere(e, r)]))]));
}
/** How often the dataset evaluators' feedback is asked for: they take seconds to minutes. */
const FEEDBACK_INTERVAL_MS = 10_000;
/** Polls the dataset evaluators' feedback until every run has each key, or the deadline. */
async function awaitFeedback(g, runIds, keys) {
    let table = new Map();
    const complete = () => [...runIds.keys()].every(id => keys.every(k => table.get(id)?.has(k)));
    const pause = Math.max(g.intervalMs, FEEDBACK_INTERVAL_MS);
    for (;;) {
        table = await g.recorder.feedback(runIds, keys);
        if (complete() || g.signal.aborted || g.clock.now() + pause > g.deadline)
            return table;
        try {
            await g.clock.sleep(pause, g.signal);
        }
        catch {
            return table;
        }
    }
}
function merge(into, from) {
    for (const [id, scores] of from) {
        const row = into.get(id);
        if (row)
            for (const [k, v] of scores)
                row.set(k, v);
    }
}
/** The baseline's scores by example: its newest passing experiment's, or `none`. */
async function baselineScores(g) {
    if (!g.evaluation.baseline)
        return undefined;
    if (!g.recorder || g.baselineId === undefined)
        return 'none';
    const [newest] = await g.recorder.experiments({ deployment_id: g.baselineId, verdict: 'passed' });
    const recorded = newest?.metadata.example_scores;
    if (!newest || !recorded)
        return 'none';
    g.log.info(`Baseline: experiment "${(0,inert/* sanitizeServerText */.c8)(newest.name, 200)}" of deployment "${g.evaluation.baseline.deployment}".`);
    return new Map(Object.entries(recorded).map(([id, s]) => [id, new Map(Object.entries(s))]));
}
/** The examples: the file's, or the dataset's (read from LangSmith). */
async function examplesOf(g) {
    const s = g.evaluation.source;
    if (s.kind === 'examples')
        return s.examples;
    const read = await g.recorder.examples();
    g.log.info(`Dataset "${(0,inert/* sanitizeServerText */.c8)(s.dataset, 200)}" (${read.datasetId}): ${read.examples.length} examples.`);
    return read.examples;
}
/** Each example run, said as it ends. */
function run(g, examples) {
    return runExamples({
        call: g.call,
        assistant: g.assistant,
        examples,
        concurrency: g.evaluation.concurrency,
        clock: g.clock,
        deadline: g.deadline,
        signal: g.signal,
        intervalMs: g.intervalMs,
        mask: g.mask,
        onRun: (r, done) => {
            const what = r.status === 'ok'
                ? `${r.endedAt - r.startedAt} ms`
                : `error: ${(0,inert/* sanitizeServerText */.c8)(r.error ?? '', 300)}`;
            g.log.info(`Example ${done}/${examples.length} (${(0,inert/* sanitizeServerText */.c8)(r.example.id, 100)}): ${what}.`);
        }
    });
}
/** What the gate found, for the journal (the outputs, the summary). */
function factsOf(j, runs, e) {
    return {
        verdict: j.verdict,
        ...(e ? { url: e.url, experiment: { id: e.id, name: e.name } } : {}),
        scores: j.scores,
        reasons: j.reasons,
        regressions: j.regressions,
        examples: runs.length,
        errors: runs.filter(r => r.status === 'error').length
    };
}
/** A run as LangSmith is sent it: its output with secret values masked, as the log shows it. */
function shown(r, mask) {
    if (r.status !== 'ok')
        return r;
    const text = JSON.stringify(r.output ?? null);
    const masked = mask(text);
    if (masked === text)
        return r;
    try {
        return { ...r, output: JSON.parse(masked) };
    }
    catch {
        return { ...r, output: masked };
    }
}
const tableRecord = (t) => Object.fromEntries([...t].map(([id, s]) => [id, Object.fromEntries(s)]));
/** Runs the gate on the revision; LangSmith failing is an inconclusive verdict, said why. */
async function evaluateRevision(g) {
    const rec = g.recorder;
    let experiment;
    let runs = [];
    try {
        const examples = await examplesOf(g);
        if (rec)
            experiment = await rec.start(experimentName(g.judging, g.clock.now()), metadataOf(g, 'running'));
        if (experiment)
            g.log.info(`Experiment "${(0,inert/* sanitizeServerText */.c8)(experiment.name, 200)}": ${experiment.url}`);
        runs = await run(g, examples);
        const scores = scoresHere(g, runs);
        const late = [];
        if (rec && experiment) {
            const ids = await rec.record(experiment, runs.map(r => shown(r, g.mask)));
            const ran = new Map([...ids].filter(([id]) => scores.has(id)));
            await rec.score(experiment, ran, scores);
            const keys = g.evaluation.evaluators.filter(e => e.type === 'langsmith').map(e => e.key);
            if (keys.length > 0) {
                const feedback = await awaitFeedback(g, ran, keys);
                merge(scores, feedback);
                for (const key of keys) {
                    const missing = [...ran.keys()].filter(id => !feedback.get(id)?.has(key)).length;
                    if (missing > 0)
                        late.push({ key, missing });
                }
            }
        }
        const errors = runs
            .filter(r => r.status === 'error')
            .map(r => ({ exampleId: r.example.id, error: r.error ?? 'error' }));
        const baseline = await baselineScores(g);
        const judged = judge({
            evaluation: g.evaluation,
            scores,
            errors,
            late,
            ...(baseline ? { baseline } : {})
        });
        if (rec && experiment)
            await rec.finish(experiment, {
                ...metadataOf(g, judged.verdict),
                scores: judged.scores,
                example_scores: tableRecord(scores)
            });
        return factsOf(judged, runs, experiment);
    }
    catch (err) {
        const text = g.mask(err instanceof Error ? err.message : String(err));
        const reason = `LangSmith could not be read or written (${(0,inert/* sanitizeServerText */.c8)(text, 300)})`;
        const empty = judge({ evaluation: g.evaluation, scores: new Map(), errors: [], late: [] });
        return {
            ...factsOf({ ...empty, verdict: 'inconclusive', reasons: [reason] }, runs, experiment)
        };
    }
}

// EXTERNAL MODULE: ./src/health/verify/agent-probe.ts
var agent_probe = __webpack_require__(3880);
// EXTERNAL MODULE: ./src/health/verify/graph-config.ts
var graph_config = __webpack_require__(901);
// EXTERNAL MODULE: ./src/inputs/health.ts
var health = __webpack_require__(6543);
// EXTERNAL MODULE: ./src/interface/ending.ts
var ending = __webpack_require__(7472);
// EXTERNAL MODULE: ./src/commands/deploy/steps/after-deployed.ts + 6 modules
var after_deployed = __webpack_require__(2152);
// EXTERNAL MODULE: ./src/commands/deploy/steps/find-deployment.ts
var find_deployment = __webpack_require__(993);
;// CONCATENATED MODULE: ./src/commands/deploy/steps/evaluation.ts
// The evaluation gate as a step of the deploy: after the health gate, the `evaluate` file's
// examples run on the new revision (src/evaluate/), its verdict said and made the run's ending.
// Failed or inconclusive fail like an unhealthy server: with `on-failure: rollback`, rolled back.









const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The graph the examples run on: the file's `assistant`, else the config's only graph. */
async function assistantOf(set, o, deps) {
    if (set.evaluation.assistant)
        return set.evaluation.assistant;
    const ids = await (0,graph_config/* readGraphIds */.v)((0,external_node_path_.join)(deps.workspace ?? '.', o.graphConfigPath), o.graphConfigPath);
    if ('graphs' in ids && ids.graphs.length === 1)
        return ids.graphs[0];
    const why = 'graphs' in ids
        ? `${o.graphConfigPath} has ${ids.graphs.length} graphs (${ids.graphs.join(', ')})`
        : ids.unreadable;
    return (0,ending/* stop */.ds)(`${deps.say('evaluate')} (${set.evaluation.file}) names no \`assistant\`, and the config's only graph cannot stand for it: ${why}.`, `Set \`assistant\` in ${set.evaluation.file} to the graph or assistant id the examples run on.`, 'Evaluation inconclusive');
}
/** LangSmith, for a dataset: the official client, loaded now. */
async function recorderOf(set, o, deps, deadline) {
    const s = set.evaluation.source;
    if (s.kind !== 'dataset' || set.langsmithApi === undefined)
        return undefined;
    const { langsmithRecorder } = await __webpack_require__.e(/* import() */ 354).then(__webpack_require__.bind(__webpack_require__, 8354));
    return langsmithRecorder({
        apiUrl: set.langsmithApi,
        apiKey: o.apiKey,
        tenantId: o.tenantId,
        dataset: s.dataset,
        signal: deps.signal,
        clock: deps.clock,
        deadline,
        onRetry: line => deps.log.info(line)
    });
}
/** The baseline deployment's id (by name through the control plane); undefined when none. */
async function baselineIdOf(set, deps) {
    const name = set.evaluation.baseline?.deployment;
    if (name === undefined)
        return undefined;
    if (UUID.test(name))
        return name;
    const d = await (0,find_deployment/* findDeploymentByName */.X0)(deps.client, name, deps.say);
    return d && !(0,ending/* stopped */.ce)(d) ? d.id : undefined;
}
/** What a gate on one agent server needs: the revision's server, the examples' transport. */
async function gateFor(c, server, judging) {
    const { o, deps } = c;
    const set = deps.evaluation;
    const state = { name: server.name, url: server.url, deploymentType: undefined };
    const settings = (0,after_deployed/* healthSettings */.Gr)(o, o.healthCheck || health/* DEFAULT_HEALTH_PATH */.fp, state, deps, {
        waitedMs: 0
    });
    const assistant = await assistantOf(set, o, deps);
    if ((0,ending/* stopped */.ce)(assistant))
        return assistant;
    return {
        evaluation: set.evaluation,
        call: (0,agent_probe/* agentProbe */.Cc)(settings),
        assistant,
        clock: deps.clock,
        deadline: server.deadline,
        signal: deps.signal ?? new AbortController().signal,
        intervalMs: Math.min(5000, o.pollIntervalMs),
        mask: text => deps.client.redactor.redact(text),
        log: deps.log,
        judging,
        recorder: await recorderOf(set, o, deps, server.deadline),
        baselineId: await baselineIdOf(set, deps)
    };
}
/** The judging of this run's revision: the deployment, the revision, its commit or digest. */
const judgingOf = (state, r) => ({
    deploymentId: r.deploymentId,
    deploymentName: state.name ?? r.deploymentId,
    revisionId: r.revisionId,
    commit: state.repoCommitSha,
    sourceDigest: state.source?.digest
});
/** The evaluation of the new revision, made the run's ending. */
async function evaluateDeployed(c, r, deadline) {
    const { deps } = c;
    const state = (0,after_deployed/* known */.eO)(c);
    const gate = await gateFor(c, { url: state.url, name: state.name, deadline }, judgingOf(state, r));
    if ((0,ending/* stopped */.ce)(gate))
        return gate;
    const facts = await deps.log.group(`Evaluation of revision ${r.revisionId}`, async () => {
        const f = await evaluateRevision(gate);
        sayVerdict(f, deps);
        return f;
    });
    c.learned.evaluation = facts;
    if (deps.signal?.aborted) {
        const message = `Cancelled during the evaluation of revision ${r.revisionId}, which is DEPLOYED.`;
        return { outcome: 'cancelled', failure: { message, title: 'Deploy cancelled' } };
    }
    if (facts.verdict === 'passed')
        return { outcome: 'deployed' };
    const rolled = await (0,after_deployed/* rollBack */.Fu)(c, r, `during its evaluation`);
    if ((0,ending/* stopped */.ce)(rolled))
        return rolled;
    const outcome = facts.verdict === 'failed' ? 'evaluation-failed' : 'evaluation-inconclusive';
    return { outcome, failure: evaluationFailure(facts, r.revisionId, state.name, rolled) };
}
/** The verdict in the log: a line per key, and why it did not pass. */
function sayVerdict(f, deps) {
    for (const [key, s] of Object.entries(f.scores))
        deps.log.info(`${key}: mean ${s.mean ?? '-'}, pass rate ${s.pass_rate ?? '-'}, n ${s.n}${s.baseline === null ? '' : `, baseline ${s.baseline}`}.`);
    const why = f.reasons.map(t => (0,inert/* sanitizeServerText */.c8)(t, 1000)).join('; ');
    deps.log.info(`Evaluation ${f.verdict}${why ? `: ${why}` : ''}.`);
}
function evaluationFailure(f, revisionId, name, rolled) {
    const why = f.reasons.map(t => (0,inert/* sanitizeServerText */.c8)(t, 1000)).join('; ');
    const what = f.verdict === 'failed' ? 'it failed its evaluation' : 'its evaluation was inconclusive';
    return {
        message: `Revision ${revisionId} of "${name ?? ''}" is DEPLOYED and its agent server answers, but ${what}: ${why}.${rolled ? ` ${rolled}` : ''}`,
        hint: f.verdict === 'failed'
            ? 'Read the score table in the job summary and the experiment (evaluation-url); fix the agent, and push again.'
            : 'Read the examples that errored, raise timeout when the dataset’s evaluators need longer, or record a passing experiment of the baseline deployment first.',
        title: f.verdict === 'failed' ? 'Evaluation failed' : 'Evaluation inconclusive'
    };
}
/** The source's passing experiment on the same dataset and file, when one is recorded. */
async function recordedPass(gate, revisionId) {
    const rec = gate.recorder;
    if (!rec)
        return undefined;
    await rec.examples();
    const match = {
        revision_id: revisionId,
        verdict: 'passed',
        evaluation_digest: gate.evaluation.digest
    };
    const [e] = await rec.experiments(match);
    if (!e)
        return undefined;
    const scores = e.metadata.scores ?? {};
    const n = Math.max(0, ...Object.values(scores).map(s => s.n));
    return {
        verdict: 'passed',
        url: e.url,
        experiment: { id: e.id, name: e.name },
        scores,
        reasons: [],
        regressions: [],
        examples: n,
        errors: 0
    };
}
/** With `evaluate`, a promotion's evidence: the source's recorded pass, else its evaluation now. */
async function evaluateSource(c, source) {
    const { o, deps } = c;
    const judging = {
        deploymentId: source.deploymentId,
        deploymentName: source.name,
        revisionId: source.revisionId,
        commit: source.commit,
        sourceDigest: source.sourceDigest
    };
    const gate = await gateFor(c, { url: source.url, name: source.name, deadline: deps.clock.now() + o.timeoutMs }, judging);
    if ((0,ending/* stopped */.ce)(gate))
        return gate;
    const of = `"${source.name}" revision ${source.revisionId}`;
    const recorded = await recordedPass(gate, source.revisionId).catch(() => undefined);
    if (recorded) {
        deps.log.info(`Evidence: experiment "${(0,inert/* sanitizeServerText */.c8)(recorded.experiment.name, 200)}" passed for ${of} on the same dataset and evaluation file: ${recorded.url}`);
        return {
            facts: { ...recorded, of: `recorded for ${of}` },
            check: `its evaluation (experiment ${recorded.experiment.name}, recorded)`
        };
    }
    if (o.dryRun) {
        // A dry run writes nothing, an experiment included: a real run evaluates the source here.
        deps.log.info(`No passing experiment is recorded for ${of}: a real run would evaluate it now.`);
        return { facts: undefined, check: 'its evaluation: not run (a dry run records no experiment)' };
    }
    const facts = await deps.log.group(`Evaluation of the promotion's source ${of}`, async () => {
        const f = await evaluateRevision(gate);
        sayVerdict(f, deps);
        return f;
    });
    if (facts.verdict === 'passed')
        return {
            facts: { ...facts, of: `evaluated now for ${of}` },
            check: `its evaluation${facts.experiment ? ` (experiment ${facts.experiment.name})` : ''}`
        };
    const why = facts.reasons.map(t => (0,inert/* sanitizeServerText */.c8)(t, 1000)).join('; ');
    return (0,ending/* stop */.ds)(`Promotion refused: revision ${source.revisionId} of "${source.name}" (${source.deploymentId}, ${deps.say('promote-from')}) did not pass its evaluation (${facts.verdict}): ${why}. Nothing was written.`, `Promote a revision that passes ${deps.say('evaluate')}: fix "${source.name}", deploy it with the gate, then promote.`, 'Promotion refused');
}


/***/ }),

/***/ 9088:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   R: () => (/* binding */ parsePath),
/* harmony export */   W: () => (/* binding */ valueAtPath)
/* harmony export */ });
// A path into a run's output or an example's outputs: `messages[-1].content`, `a.b[0]`, `[0]`.
// A negative index counts from the end (the last message is `[-1]`).
/** Keys are any text but `.`, `[` and `]`; indexes are integers, negative from the end. */
const PATH = /^(?:[^.[\]]+|\[-?\d+\])(?:\.[^.[\]]+|\[-?\d+\])*$/;
/** The steps of a path, or undefined when it is not one. */
function parsePath(text) {
    if (!PATH.test(text))
        return undefined;
    return [...text.matchAll(/([^.[\]]+)|\[(-?\d+)\]/g)].map(([, key, index]) => index !== undefined ? { index: Number(index) } : { key: key });
}
/** The value at `steps` in `root`, or undefined when the path leads nowhere. */
function valueAtPath(root, steps) {
    let v = root;
    for (const step of steps) {
        if ('index' in step) {
            if (!Array.isArray(v))
                return undefined;
            const i = step.index < 0 ? v.length + step.index : step.index;
            if (i < 0 || i >= v.length)
                return undefined;
            v = v[i];
        }
        else {
            if (typeof v !== 'object' || v === null || Array.isArray(v))
                return undefined;
            if (!Object.hasOwn(v, step.key))
                return undefined;
            v = v[step.key];
        }
    }
    return { value: v };
}


/***/ })

};
