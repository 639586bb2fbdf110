export const id = 740;
export const ids = [740];
export const modules = {

/***/ 9740:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runCheck: () => (/* binding */ runCheck)
});

// EXTERNAL MODULE: ./src/interface/ending.ts
var ending = __webpack_require__(7472);
// EXTERNAL MODULE: ./src/commands/command.ts
var command = __webpack_require__(3155);
// EXTERNAL MODULE: ./src/control-plane/errors.ts
var errors = __webpack_require__(4007);
// EXTERNAL MODULE: ./src/inputs/resolved.ts
var resolved = __webpack_require__(9481);
// EXTERNAL MODULE: ./src/report/status-words.ts
var status_words = __webpack_require__(2666);
// EXTERNAL MODULE: ./src/commands/deploy/steps/material.ts
var steps_material = __webpack_require__(2659);
// EXTERNAL MODULE: ./src/commands/deploy/steps/promote.ts
var promote = __webpack_require__(9384);
// EXTERNAL MODULE: ./src/commands/deploy/steps/find-deployment.ts
var find_deployment = __webpack_require__(993);
// EXTERNAL MODULE: ./src/commands/check/against-source.ts
var against_source = __webpack_require__(6966);
// EXTERNAL MODULE: ./src/commands/check/own-state.ts
var own_state = __webpack_require__(3177);
// EXTERNAL MODULE: ./src/commands/deploy/steps/plan.ts
var steps_plan = __webpack_require__(1149);
;// CONCATENATED MODULE: ./src/commands/check/planned.ts



/** The changes a deploy of `material` (the inputs' by default) would make, or its refusal. */
function plannedChanges(o, current, say, material = (0,steps_material/* namedMaterial */.FB)(o)) {
    const plan = (0,steps_plan/* planUpdate */.ZL)(o, current, material, say);
    if ((0,ending/* stopped */.ce)(plan))
        return plan;
    if (plan.kind !== 'update')
        return { lines: (0,steps_plan/* describePlan */.df)(plan), unread: [] };
    const hidden = new Set(current.secrets.filter(s => s.value === null || s.value === undefined).map(s => s.name));
    const unread = [];
    const compared = (c) => {
        const name = c.field.startsWith('secrets.') ? c.field.slice('secrets.'.length) : undefined;
        // Set again over a value the service did not show: not known to differ.
        if (name === undefined || !hidden.has(name) || c.from === undefined || c.from !== c.to)
            return true;
        unread.push(name);
        return false;
    };
    const changes = plan.changes.filter(compared);
    if (!changes.length && !plan.removedSecrets.length)
        return { lines: [], unread };
    // The plan's lines without its head and its "then ...": each one setting that differs.
    const lines = (0,steps_plan/* describePlan */.df)({ ...plan, changes })
        .slice(1)
        .filter(l => !/^\s*then /.test(l));
    return { lines, unread };
}

;// CONCATENATED MODULE: ./src/commands/check/check.ts
// `command: check`: writes nothing. It reads the deployment's own state, plans the deploy the
// inputs describe (as the dry run does) and reads its revisions, then lists each difference; with
// `promote-from` the target's material is compared with the source's instead of with the ref. At
// most three requests (the look-up, the newest and active revision), three more for a source.










async function check(o, deps) {
    const result = {
        name: o.name,
        deploymentId: undefined,
        differences: [],
        skipped: []
    };
    let material;
    try {
        // The deploy's material, as the deploy reads it (what it refuses, the check refuses); the
        // inputs' own upload is not archived: what runs is not compared with it.
        material =
            o.promoteFrom === undefined && (0,resolved/* uploadsWorkspace */.E)(o.source, o.revisionSource)
                ? (0,steps_material/* namedMaterial */.FB)(o)
                : await (0,steps_material/* prepareMaterial */.Tl)(o, deps);
        if ((0,ending/* stopped */.ce)(material))
            result.failure = material.failure;
        else {
            if (material.kind === 'promoted')
                result.promoted = `${material.promotion.what} of "${material.source.deployment.name}" revision ${material.source.revision.id}`;
            result.failure = await compare(o, deps, result, material);
        }
    }
    catch (err) {
        if (err instanceof errors/* ControlPlaneError */.Cj)
            result.failure = { message: err.message, title: 'Check failed' };
        else
            throw err;
    }
    finally {
        if (material && !(0,ending/* stopped */.ce)(material))
            await (0,steps_material/* releaseMaterial */.$U)(material);
    }
    return result;
}
async function compare(o, deps, result, material) {
    const current = await deps.log.group('Find the deployment', () => find(o, deps));
    if ((0,ending/* stopped */.ce)(current))
        return current.failure;
    if (!current) {
        const what = o.target.kind === 'id' ? `Deployment ${o.target.deploymentId}` : `Deployment "${o.name}"`;
        result.differences.push((0,own_state/* one */.xH)('absent', `${what} does not exist: a deploy would create it.`));
        return undefined;
    }
    result.name = current.name;
    result.deploymentId = current.id;
    const gone = (0,own_state/* deleting */.NG)(o, current);
    if (gone) {
        result.differences.push(gone);
        return undefined;
    }
    const unfit = material.kind === 'promoted' && (0,promote/* refuseUnfitTarget */.is)(material.source, current, deps.say);
    if (unfit)
        return unfit.failure;
    const own = (0,own_state/* statusAndType */.c9)(o, current, deps.say);
    result.differences.push(...own.differences);
    result.skipped.push(...own.skipped);
    // Another type is drift already; the plan then lists what else differs.
    const typeOff = own.differences.some(d => d.kind === 'type');
    const planOptions = typeOff ? { ...o, deploymentType: undefined } : o;
    const refused = planned(planOptions, deps, current, result, (0,steps_material/* materialToWrite */.qO)(material));
    if (refused)
        return refused;
    await deps.log.group('Revisions', () => revisions(o, deps, current, result, material));
    return undefined;
}
async function find(o, deps) {
    const d = await (0,find_deployment/* findNamed */.n4)(o, deps);
    // What was found, as a deploy says it: the fold is not left empty.
    if (d && !(0,ending/* stopped */.ce)(d))
        deps.log.info(`Found deployment "${d.name}" (${d.id}), status ${(0,status_words/* shownStatus */.O4)(d.status)}.`);
    return d;
}
/** The planned changes, as differences; the deploy's failure when it would refuse. */
function planned(o, deps, current, result, material) {
    const plan = plannedChanges(o, current, deps.say, material);
    if ((0,ending/* stopped */.ce)(plan))
        return plan.failure;
    if (plan.unread.length)
        result.skipped.push(`secret values of ${plan.unread.join(', ')}: the control plane does not return them, so only their names are compared`);
    if (plan.lines.length) {
        result.differences.push({
            kind: 'planned',
            text: `A deploy with these inputs would change "${current.name}":`,
            details: plan.lines
        });
    }
    return undefined;
}
/** The revisions' state; the active one's material against the promotion's, else the ref's. */
async function revisions(o, deps, d, result, material) {
    const promoted = material.kind === 'promoted' ? material : undefined;
    const named = material.kind === 'named' ? material : undefined;
    // The commit the ref names now is known for a codehost deploy of the event's ref.
    const wantsCommit = named?.source === 'codehost' && named.expectedSha !== undefined;
    const read = await (0,own_state/* revisionsState */.eB)(deps.client, d, promoted !== undefined || wantsCommit);
    result.differences.push(...read.differences);
    if (promoted) {
        const m = (0,against_source/* materialDifference */.p)(d, read.active, promoted, deps);
        if (m)
            result.differences.push(m);
    }
    else if (named)
        commit(o, named, read.active, d.active_revision_id, result);
    const built = read.active?.source_revision_config?.repo_commit_sha;
    deps.log.info(`Latest revision ${d.latest_revision_id ?? 'none'}${read.latest ? ` (${(0,status_words/* shownStatus */.O4)(read.latest.status)})` : ''}, active ${d.active_revision_id ?? 'none'}${built ? `, built ${built}` : ''}.`);
}
function commit(o, m, active, activeId, result) {
    const skip = (why) => void result.skipped.push(why);
    if ((0,resolved/* uploadsWorkspace */.E)(o.source, o.revisionSource) && activeId !== null)
        return skip('the source: the control plane keeps no digest of an uploaded archive, so what runs is not compared with the workspace');
    if (m.source !== 'codehost' || activeId === null)
        return;
    if (m.expectedSha === undefined)
        return skip(`the commit built: the ref ${m.ref ?? '(none)'} is not the event's or the checkout's, so the commit it names now is not known here`);
    const built = active?.source_revision_config?.repo_commit_sha;
    if (!built)
        return skip(`the commit built: the control plane does not report it for revision ${activeId}`);
    if (built.toLowerCase() === m.expectedSha.toLowerCase())
        return;
    const text = `The active revision ${activeId} built commit ${built}, but ${m.ref} names ${m.expectedSha} now.`;
    result.differences.push((0,own_state/* one */.xH)('commit', text));
}

// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
// EXTERNAL MODULE: ./src/interface/outcomes.ts
var outcomes = __webpack_require__(5686);
;// CONCATENATED MODULE: ./src/commands/check/summary.ts
// The check's job summary: in sync, or each difference, and what could not be judged. The lines
// carry the control plane's text: inert Markdown, the plan's lines in fences of their own.


const indented = (block) => block.replace(/^/gm, '  ');
function renderCheckSummary(r, outcome, error) {
    const name = r.name ? `\`${r.name}\`` : 'deployment';
    const out = [`### ${outcomes/* OUTCOMES */.i[outcome].headline}: ${name}`, ''];
    const runs = r.promoted ? `, and runs what its source runs: ${(0,inert/* mdText */.bC)(r.promoted)}` : '';
    if (!r.failure && !r.differences.length)
        out.push(`The deployment is what these inputs describe${runs}.`);
    for (const d of r.differences) {
        out.push(`- ${(0,inert/* mdText */.bC)(d.text)}`);
        if (d.details.length)
            out.push('', indented((0,inert/* mdFenced */.bm)(d.details)));
    }
    if (r.skipped.length) {
        out.push('', '**Not compared**', '');
        for (const s of r.skipped)
            out.push(`- ${(0,inert/* mdText */.bC)(s)}`);
    }
    if (error)
        out.push('', '**What failed**', '', (0,inert/* mdFenced */.bm)(error.split('\n')));
    return out.join('\n') + '\n';
}

;// CONCATENATED MODULE: ./src/commands/check/run.ts
// The check's run: the check, then its log, summary, outputs and ending: in sync, or drift
// (failing the step unless `fail-on-drift: false`).




async function runCheck(o, context) {
    const { port, log, redactor } = context;
    const r = await check(o, (0,command/* stepDeps */.DJ)(context));
    const drift = r.failure ? undefined : r.differences.length > 0;
    const outputs = {
        drift: drift === undefined ? '' : String(drift),
        'deployment-id': r.deploymentId ?? ''
    };
    if (r.failure) {
        const outcome = port.signal.aborted ? 'cancelled' : 'error';
        const summary = renderCheckSummary(r, outcome, redactor.redact((0,ending/* failureText */.kY)(r.failure)));
        return { outcome, failure: r.failure, outputs, summary };
    }
    report(log, r);
    if (!drift)
        return { outcome: 'in-sync', outputs, summary: renderCheckSummary(r, 'in-sync') };
    const text = `"${r.name ?? o.name}" differs from these inputs: ${r.differences.map(driftWords).join('; ')} (each listed above).`;
    if (!o.failOnDrift) {
        log.warning(`${text} ${port.say.set('fail-on-drift', false)}: the step passes.`, 'Drift');
        return { outcome: 'drift-passed', outputs, summary: renderCheckSummary(r, 'drift-passed') };
    }
    const failure = { message: text, title: 'Drift' };
    return { outcome: 'drift', failure, outputs, summary: renderCheckSummary(r, 'drift') };
}
/** Each difference in a few words, for the one error line. */
const DRIFT_WORDS = {
    absent: 'it does not exist',
    'not-latest': 'its active revision is not the latest',
    commit: 'its active revision built another commit than the ref names',
    deleting: 'it is being deleted',
    status: 'it is not READY',
    type: 'it is of another type',
    'no-revision': 'it has no revision',
    'not-deployed': 'its active revision is not DEPLOYED',
    material: "it does not run the promotion's source's material"
};
function driftWords(d) {
    if (d.kind !== 'planned')
        return DRIFT_WORDS[d.kind];
    return `a deploy would change ${d.details.length === 1 ? 'one setting' : `${d.details.length} settings`}`;
}
/** Each difference and what was not compared, in the log. */
function report(log, r) {
    for (const s of r.skipped)
        log.notice(`Not compared: ${s}.`);
    if (!r.differences.length) {
        const runs = r.promoted ? `, and runs ${r.promoted}` : '';
        log.info(`In sync: "${r.name}" is what these inputs describe${runs}.`);
        return;
    }
    for (const d of r.differences) {
        log.info(`Drift: ${d.text}`);
        for (const line of d.details)
            log.info(line);
    }
}


/***/ })

};
