#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 486:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4262);
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(5695);
// The `control-plane-deploy` command: the CLI door on the real process, around the same run as
// the action's (src/run.ts).


process.exitCode = await (0,_main_js__WEBPACK_IMPORTED_MODULE_1__/* .cli */ .x)(process.argv.slice(2), process.env, {
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => Date.now(),
    cwd: process.cwd(),
    onSignal(handler) {
        process.on('SIGINT', handler);
        process.on('SIGTERM', handler);
        return () => {
            process.off('SIGINT', handler);
            process.off('SIGTERM', handler);
        };
    },
    exit: code => process.exit(code)
}, port => (0,_run_js__WEBPACK_IMPORTED_MODULE_0__/* .run */ .e)(port));

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 5695:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  x: () => (/* binding */ cli)
});

// UNUSED EXPORTS: STOP_GRACE_MS

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: ./src/control-plane/redact.ts
var redact = __nccwpck_require__(7889);
// EXTERNAL MODULE: ./src/version.ts + 1 modules
var version = __nccwpck_require__(1013);
// EXTERNAL MODULE: ./src/event.ts
var src_event = __nccwpck_require__(807);
;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: ./src/cli/git.ts
// What the git checkout in the working directory says: the commit checked out, its branch (or the
// tag when HEAD is detached on one), and the `origin` remote. Read with the git command, once.

/** One git command's output, trimmed; undefined when git fails or is not installed. */
function git(cwd, args) {
    try {
        const out = (0,external_node_child_process_namespaceObject.execFileSync)('git', args, {
            cwd,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
            timeout: 10_000
        }).trim();
        return out === '' ? undefined : out;
    }
    catch {
        return undefined;
    }
}
/** The checkout at `cwd`; `{}` outside one. */
function readGit(cwd) {
    const sha = git(cwd, ['rev-parse', '--verify', '-q', 'HEAD']);
    if (sha === undefined)
        return {};
    const facts = { sha };
    const branch = git(cwd, ['symbolic-ref', '--short', '-q', 'HEAD']);
    if (branch !== undefined)
        facts.branch = branch;
    else {
        const tag = git(cwd, ['describe', '--tags', '--exact-match', 'HEAD']);
        if (tag !== undefined)
            facts.tag = tag;
    }
    const origin = git(cwd, ['remote', 'get-url', 'origin']);
    if (origin !== undefined)
        facts.originUrl = origin;
    return facts;
}
const GITHUB_URL = [
    // https://github.com/owner/name(.git), with or without credentials before the host
    /^(?:https?|git):\/\/(?:[^@/]*@)?(?:www\.)?github\.com(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i,
    // ssh://git@github.com(:22)/owner/name.git
    /^ssh:\/\/(?:[^@/]*@)?(?:ssh\.)?github\.com(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i,
    // git@github.com:owner/name.git (scp-like)
    /^(?:[^@/:]+@)?github\.com:\/?([^/]+)\/([^/]+?)(?:\.git)?\/?$/i
];
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
/** `owner/name` of a github.com remote URL in any of git's forms; undefined for anything else. */
function githubRepository(url) {
    if (!url)
        return undefined;
    for (const form of GITHUB_URL) {
        const m = form.exec(url.trim());
        if (m && OWNER.test(m[1]) && NAME.test(m[2]) && m[2] !== '.' && m[2] !== '..') {
            return `${m[1]}/${m[2]}`;
        }
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/cli/ci.ts
// What the CI the CLI runs in implies for the inputs left empty: the ref to deploy, the commit the
// revision is expected to build, the repository and the pull (merge) request, as the action takes
// them from the triggering event (src/event.ts). Each CI says it in its own variables; outside any
// CI, the git checkout in the working directory says it. One sentence says which source was used.


const TAG_PREFIX = 'refs/tags/';
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
function ci_text(value) {
    const v = value?.trim();
    return v ? v : undefined;
}
/** A full commit id, not the all-zero one nor a name such as `HEAD`. */
function commit(value) {
    const v = ci_text(value);
    return v !== undefined && SHA.test(v) && !/^0+$/.test(v) ? v.toLowerCase() : undefined;
}
function positive(value) {
    const n = Number(ci_text(value));
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
/** A branch without the prefixes some CIs leave on it (`origin/main`, `refs/heads/main`). */
function branch(value) {
    return ci_text(value)?.replace(/^(?:refs\/heads\/|origin\/)/, '') || undefined;
}
function tagRef(tag) {
    return tag.startsWith(TAG_PREFIX) ? tag : TAG_PREFIX + tag;
}
/** The facts of a run on a tag, a pull request or a branch, in that order. */
function facts(ci, on, sha, repositoryUrl) {
    const base = { ci, sha, repositoryUrl };
    if (on.tag)
        return { ...base, trigger: `tag ${on.tag}`, ref: tagRef(on.tag) };
    if (on.pr !== undefined) {
        return {
            ...base,
            trigger: `pull request #${on.pr}`,
            ref: on.prBranch,
            pullRequestNumber: on.pr
        };
    }
    return { ...base, trigger: on.branch ? `branch ${on.branch}` : 'a build', ref: on.branch };
}
// Each CI's own variables, as its documentation names them.
function gitlab(env) {
    if (env.GITLAB_CI !== 'true')
        return undefined;
    const iid = positive(env.CI_MERGE_REQUEST_IID);
    if (iid !== undefined && !ci_text(env.CI_COMMIT_TAG)) {
        // In a merged results pipeline CI_COMMIT_SHA is the merge commit; the source branch's head is
        // what the control plane builds from the branch.
        const sha = commit(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA) ?? commit(env.CI_COMMIT_SHA);
        return {
            ci: 'GitLab CI',
            trigger: `merge request !${iid}`,
            ref: ci_text(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME),
            sha,
            pullRequestNumber: iid
        };
    }
    return facts('GitLab CI', { tag: ci_text(env.CI_COMMIT_TAG), branch: ci_text(env.CI_COMMIT_BRANCH ?? env.CI_COMMIT_REF_NAME) }, commit(env.CI_COMMIT_SHA));
}
function bitbucket(env) {
    if (!ci_text(env.BITBUCKET_BUILD_NUMBER))
        return undefined;
    return facts('Bitbucket Pipelines', {
        tag: ci_text(env.BITBUCKET_TAG),
        pr: positive(env.BITBUCKET_PR_ID),
        prBranch: ci_text(env.BITBUCKET_BRANCH),
        branch: ci_text(env.BITBUCKET_BRANCH)
    }, commit(env.BITBUCKET_COMMIT), ci_text(env.BITBUCKET_GIT_HTTP_ORIGIN));
}
function circleci(env) {
    if (env.CIRCLECI !== 'true')
        return undefined;
    const pr = positive(env.CIRCLE_PR_NUMBER) ??
        positive(/\/pull\/(\d+)/.exec(env.CIRCLE_PULL_REQUEST ?? '')?.[1]);
    return facts('CircleCI', {
        tag: ci_text(env.CIRCLE_TAG),
        pr,
        prBranch: ci_text(env.CIRCLE_BRANCH),
        branch: ci_text(env.CIRCLE_BRANCH)
    }, commit(env.CIRCLE_SHA1), ci_text(env.CIRCLE_REPOSITORY_URL));
}
function buildkite(env) {
    if (env.BUILDKITE !== 'true')
        return undefined;
    return facts('Buildkite', {
        tag: ci_text(env.BUILDKITE_TAG),
        pr: positive(env.BUILDKITE_PULL_REQUEST),
        prBranch: ci_text(env.BUILDKITE_BRANCH),
        branch: ci_text(env.BUILDKITE_BRANCH)
    }, 
    // `HEAD` on a build started by hand: the checkout says which commit that was.
    commit(env.BUILDKITE_COMMIT), ci_text(env.BUILDKITE_REPO));
}
function jenkins(env) {
    if (!ci_text(env.JENKINS_URL))
        return undefined;
    const pr = positive(env.CHANGE_ID);
    return facts('Jenkins', {
        tag: ci_text(env.TAG_NAME),
        pr,
        prBranch: ci_text(env.CHANGE_BRANCH),
        branch: branch(env.BRANCH_NAME) ?? branch(env.GIT_BRANCH)
    }, commit(env.GIT_COMMIT), ci_text(env.GIT_URL));
}
const CIS = [gitlab, bitbucket, circleci, buildkite, jenkins];
/** `abc1234` for the log: the commit's first 12 characters. */
function ci_short(sha) {
    return sha.slice(0, 12);
}
/** `ref main, commit 1a2b..., repository acme/agent`, each with where it came from when not the CI. */
function describe(d, fromGit) {
    const parts = [];
    const from = (key) => fromGit.has(key) ? ` (${key === 'repository' ? 'origin remote' : 'git checkout'})` : '';
    if (d.ref)
        parts.push(`ref ${d.ref}${from('ref')}`);
    if (d.expectedSha)
        parts.push(`commit ${ci_short(d.expectedSha)}${from('sha')}`);
    if (d.repository)
        parts.push(`repository ${d.repository}${from('repository')}`);
    return parts.length ? parts.join(', ') : 'no ref, commit or repository';
}
function fromGitHubActions(env) {
    const defaults = (0,src_event/* eventDefaults */.Vo)(env, (0,src_event/* readEventPayload */.N5)(env));
    const event = ci_text(env.GITHUB_EVENT_NAME) ?? 'an event';
    return {
        defaults,
        source: `Defaults from GitHub Actions (${event}): ${describe(defaults, new Set())}.`
    };
}
/**
 * The defaults of the CI in `env`, completed from the git checkout (`git` is read only when
 * something is missing); outside any CI, the checkout's alone.
 */
function detectDefaults(env, git) {
    if (env.GITHUB_ACTIONS === 'true')
        return fromGitHubActions(env);
    const ci = CIS.map(read => read(env)).find(f => f !== undefined);
    let checkout;
    const readCheckout = () => (checkout ??= git());
    const fromGit = new Set();
    const defaults = {};
    let ref = ci?.ref;
    let sha = ci?.sha;
    if (ref === undefined && ci === undefined) {
        const g = readCheckout();
        ref = g.branch ?? (g.tag ? tagRef(g.tag) : undefined);
        if (ref !== undefined)
            fromGit.add('ref');
    }
    if (sha === undefined) {
        sha = readCheckout().sha;
        if (sha !== undefined)
            fromGit.add('sha');
    }
    const ciRepository = githubRepository(ci?.repositoryUrl);
    const repository = ciRepository ?? githubRepository(readCheckout().originUrl);
    if (repository !== undefined && ciRepository === undefined)
        fromGit.add('repository');
    if (ref !== undefined)
        defaults.ref = ref;
    if (sha !== undefined)
        defaults.expectedSha = sha;
    if (repository !== undefined)
        defaults.repository = repository;
    if (ci?.pullRequestNumber !== undefined)
        defaults.pullRequestNumber = ci.pullRequestNumber;
    const where = ci
        ? `${ci.ci} (${ci.trigger})`
        : checkout?.sha !== undefined
            ? 'the git checkout'
            : undefined;
    if (where === undefined) {
        return {
            defaults,
            source: 'No CI and no git checkout found: ref, commit and repository have no defaults (give --ref and --repository).'
        };
    }
    return {
        defaults,
        source: `Defaults from ${where}: ${describe(defaults, ci ? fromGit : new Set())}.`
    };
}

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __nccwpck_require__(7975);
// EXTERNAL MODULE: ./src/inputs/table.ts + 2 modules
var table = __nccwpck_require__(6377);
// EXTERNAL MODULE: ./src/inputs/action-yml.ts
var action_yml = __nccwpck_require__(1068);
// EXTERNAL MODULE: ./src/inputs/names.ts
var names = __nccwpck_require__(5585);
;// CONCATENATED MODULE: ./src/cli/inputs.ts
// The action's inputs and outputs as the CLI offers them, from their one declaration: names,
// descriptions and defaults from action.yml (the generated action-yml.ts), and whether an input
// is a yes/no flag from its row in the inputs table (its check reads `true` and `false` as
// booleans). A new input is a new flag, in --help too, without an edit here.




/** Whether the input's check reads `true` and `false` as the booleans they say. */
function isBoolean(name) {
    // A YAML/JSON input is a document, never a flag (and its parser is loaded only for a run).
    if (names/* DOCUMENT_INPUTS */.aw.includes(name))
        return false;
    const check = table/* INPUTS */.mc[name].check;
    const ignore = () => undefined;
    return check('true', ignore) === true && check('false', ignore) === false;
}
const CLI_INPUTS = names/* INPUT_NAMES */.Qh.map(name => ({
    name,
    description: action_yml/* ACTION_INPUTS */.b[name].description,
    default: (0,names/* defaultOf */.HA)(name),
    required: action_yml/* ACTION_INPUTS */.b[name].required,
    boolean: isBoolean(name)
}));
const CLI_OUTPUTS = Object.entries(action_yml/* ACTION_OUTPUTS */.c).map(([name, o]) => ({
    name,
    description: o.description
}));

;// CONCATENATED MODULE: ./src/cli/flags.ts
// The command line and the environment -> the action's inputs by their action.yml names, the way
// the runner hands them to the action: a flag, else `CONTROL_PLANE_<INPUT>`, else action.yml's
// default. Nothing is checked here beyond the shape of the command line: each value is checked
// by the same input checks the action runs.



const COMMANDS = ['deploy', 'delete'];
/** Inputs that never come from a flag, with what to do instead. */
const NOT_FLAGS = {
    'api-key': 'the API key is read only from the environment variable CONTROL_PLANE_API_KEY: a key on the command line stays in the shell history and is visible to every user of the machine in `ps`',
    'github-token': 'the GitHub token is read only from the environment variable GITHUB_TOKEN',
    command: 'the command is the first word: `control-plane-deploy deploy` or `... delete`'
};
/** Where each input's value comes from in the environment. */
function envNameOf(input) {
    if (input === 'github-token')
        return 'GITHUB_TOKEN';
    return `CONTROL_PLANE_${input.toUpperCase().replace(/-/g, '_')}`;
}
/** The inputs that are flags (every input but those in NOT_FLAGS). */
const FLAG_INPUTS = CLI_INPUTS.filter(i => !(i.name in NOT_FLAGS));
const OWN_FLAGS = ['output', 'output-file', 'debug', 'help', 'version'];
function optionSpecs() {
    const specs = {
        output: { type: 'string' },
        'output-file': { type: 'string' },
        debug: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' }
    };
    for (const input of FLAG_INPUTS) {
        if (input.boolean) {
            specs[input.name] = { type: 'boolean' };
            specs[`no-${input.name}`] = { type: 'boolean' };
        }
        else
            specs[input.name] = { type: 'string' };
    }
    return specs;
}
/** Edit distance, for "did you mean". */
function distance(a, b) {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const row = [i];
        for (let j = 1; j <= b.length; j++) {
            row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        prev = row;
    }
    return prev[b.length];
}
/** Why `--name` is not a flag, and what comes closest. */
function unknownFlag(raw, name, specs) {
    const bare = name.replace(/^no-/, '');
    if (bare in NOT_FLAGS)
        return `${raw} is not accepted: ${NOT_FLAGS[bare]}.`;
    const near = Object.keys(specs)
        .map(k => ({ k, d: distance(name, k) }))
        .filter(x => x.d <= Math.max(2, Math.floor(name.length / 4)))
        .sort((a, b) => a.d - b.d)[0];
    return `${raw} is not a flag of control-plane-deploy${near ? ` (did you mean --${near.k}?)` : ''}. See control-plane-deploy --help.`;
}
/** The flags given, in order; a message for the first that is wrong. */
function readFlags(tokens, specs) {
    const given = new Map();
    const positionals = [];
    for (const t of tokens) {
        if (t.kind === 'positional')
            positionals.push(t.value);
        if (t.kind !== 'option')
            continue;
        const spec = specs[t.name];
        if (!spec)
            return unknownFlag(t.rawName, t.name, specs);
        const flag = t.rawName.startsWith('--') ? t.rawName : `--${t.name}`;
        if (spec.type === 'boolean') {
            const input = t.name.replace(/^no-/, '');
            const own = OWN_FLAGS.includes(t.name);
            // `--wait=false` reads as `--no-wait`, as in the action's `wait: false`.
            if (t.value !== undefined && (own || !['true', 'false'].includes(t.value))) {
                return own
                    ? `${flag} takes no value.`
                    : `${flag} takes no value, or true or false: write --${input} or --no-${input}.`;
            }
            given.set(input, t.name.startsWith('no-') !== (t.value !== 'false'));
            continue;
        }
        // Without `--x=value`, parseArgs takes the next word whatever it is: a flag there means the
        // value was left out.
        if (t.value === undefined || (!t.inlineValue && t.value.startsWith('-'))) {
            return `${flag} needs a value (write ${flag}=VALUE for a value that starts with -).`;
        }
        given.set(t.name, t.value);
    }
    return { given, positionals };
}
/** The environment's `CONTROL_PLANE_*` variables that name no input: likely typos. */
function strayVariables(env) {
    const known = new Set(FLAG_INPUTS.map(i => envNameOf(i.name)));
    known.add(envNameOf('api-key'));
    const warnings = [];
    for (const key of Object.keys(env).sort()) {
        if (!key.startsWith('CONTROL_PLANE_') || known.has(key))
            continue;
        if (key === 'CONTROL_PLANE_GITHUB_TOKEN') {
            warnings.push('CONTROL_PLANE_GITHUB_TOKEN is ignored: the GitHub token is read from GITHUB_TOKEN.');
        }
        else if (key === 'CONTROL_PLANE_COMMAND') {
            warnings.push('CONTROL_PLANE_COMMAND is ignored: the command is the first word (deploy or delete).');
        }
        else
            warnings.push(`${key} is set but names no input of control-plane-deploy: it is ignored.`);
    }
    return warnings;
}
/**
 * Every input's raw value: the flag, else its environment variable, else action.yml's default.
 * A variable is ambient, set for every command of a job or a pipeline: one for an input the
 * command does not use (`CONTROL_PLANE_INTEGRATION_ID` in a delete) is left out and said so,
 * where the same input as a flag is the run's error, as in the action.
 */
function inputValues(command, given, env, notes) {
    const inputs = {};
    const unused = [];
    for (const input of CLI_INPUTS) {
        const flag = given.get(input.name);
        const fromEnv = env[envNameOf(input.name)];
        const applies = table/* INPUTS */.mc[input.name].applies;
        if (input.name === 'command')
            inputs[input.name] = command;
        else if (flag !== undefined)
            inputs[input.name] = String(flag);
        else if (fromEnv !== undefined && fromEnv !== '') {
            if (applies === 'both' || applies === command)
                inputs[input.name] = fromEnv;
            else
                unused.push(envNameOf(input.name));
        }
        inputs[input.name] ??= input.default;
    }
    if (unused.length)
        notes.push(`Not used by ${command}: ${unused.join(', ')}.`);
    return inputs;
}
/**
 * ` "word"` for a word a user may have mistyped; nothing for anything else, which may be a value
 * pasted in the wrong place (a key, a secret): messages never repeat those.
 */
function quoted(word) {
    return /^[a-z][a-z-]{0,19}$/.test(word) ? ` "${word}"` : '';
}
/** `argv` without node and the script. */
function parseCommandLine(argv, env) {
    const specs = optionSpecs();
    const { tokens } = (0,external_node_util_.parseArgs)({ args: argv, options: specs, strict: false, tokens: true });
    const read = readFlags(tokens, specs);
    // --help and --version answer whatever else the line holds.
    const asks = (name) => tokens.some(t => t.kind === 'option' && t.name === name && t.value === undefined);
    if (asks('help'))
        return { kind: 'help' };
    if (asks('version'))
        return { kind: 'version' };
    if (typeof read === 'string')
        return { kind: 'usage-error', message: read };
    const { given, positionals } = read;
    const [command, ...extra] = positionals;
    if (command === undefined) {
        return {
            kind: 'usage-error',
            message: 'Say what to do: control-plane-deploy deploy [flags] or control-plane-deploy delete [flags].'
        };
    }
    if (!COMMANDS.includes(command)) {
        return {
            kind: 'usage-error',
            message: `Unknown command${quoted(command)}: the commands are deploy and delete.`
        };
    }
    if (extra.length) {
        return {
            kind: 'usage-error',
            message: `Unexpected argument${quoted(extra[0])} after ${command}: every value goes with its flag (--name my-agent).`
        };
    }
    const output = given.get('output') ?? 'lines';
    if (output !== 'lines' && output !== 'json') {
        return { kind: 'usage-error', message: '--output must be lines or json.' };
    }
    const outputFile = given.get('output-file');
    const notes = [];
    const inputs = inputValues(command, given, env, notes);
    return {
        kind: 'run',
        command: command,
        inputs,
        output,
        ...(outputFile !== undefined ? { outputFile } : {}),
        debug: given.get('debug') === true,
        warnings: strayVariables(env),
        notes
    };
}

;// CONCATENATED MODULE: ./src/cli/help.ts
// `control-plane-deploy --help`, written from action.yml's declarations (inputs.ts): a new input
// is a new flag here without an edit.


const WIDTH = 100;
const INDENT = '      ';
/** `text` in lines of at most WIDTH characters, each after `indent`. */
function wrap(text, indent) {
    const lines = [];
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
        if (line && indent.length + line.length + 1 + word.length > WIDTH) {
            lines.push(indent + line);
            line = word;
        }
        else
            line = line ? `${line} ${word}` : word;
    }
    if (line)
        lines.push(indent + line);
    return lines.join('\n');
}
function flagEntry(input) {
    const flag = input.boolean ? `--${input.name}, --no-${input.name}` : `--${input.name} <value>`;
    const fallback = input.default !== '' ? ` (default: ${input.default})` : '';
    const head = `  ${flag}   ${envNameOf(input.name)}${fallback}`;
    // Too wide for one line: the variable goes on a line of its own.
    const lines = head.length <= WIDTH ? head : `  ${flag}\n${INDENT}${envNameOf(input.name)}${fallback}`;
    return `${lines}\n${wrap(input.description, INDENT)}`;
}
function help_describe(name) {
    return CLI_INPUTS.find(i => i.name === name)?.description ?? '';
}
/** The whole help text. */
function helpText() {
    return [
        'Usage: control-plane-deploy deploy [flags]',
        '       control-plane-deploy delete [flags]',
        '',
        wrap('deploy: create or update the deployment through the Deployment Control Plane API, then ' +
            'wait until its new revision is DEPLOYED, failed, superseded or timed out. delete: delete ' +
            'the deployment of this exact name (or deployment-id); none of that name is a success.', ''),
        '',
        wrap('The flags are the inputs of the GitHub Action, with the same names, defaults and checks. ' +
            'Each can also be set in the environment variable after it; a flag wins over its variable. ' +
            'Ref, commit and repository default to what the CI (GitHub Actions, GitLab CI, Bitbucket ' +
            'Pipelines, CircleCI, Buildkite, Jenkins) or else the git checkout says.', ''),
        '',
        'Only from the environment:',
        `  CONTROL_PLANE_API_KEY   (required)\n${wrap(help_describe('api-key'), INDENT)}`,
        wrap('Never a flag: a key on the command line stays in the shell history and shows in `ps`.', INDENT),
        `  GITHUB_TOKEN\n${wrap(help_describe('github-token'), INDENT)}`,
        '',
        'Flags:',
        ...FLAG_INPUTS.map(flagEntry),
        '',
        'Output:',
        '  --output lines|json   (default: lines)',
        wrap('The outputs on stdout at the end: name=value lines, or one JSON object.', INDENT),
        '  --output-file <file>',
        wrap('Also writes the outputs as dotenv (DEPLOYMENT_ID=...), e.g. for GitLab artifacts:reports:dotenv.', INDENT),
        '  --debug        every request and answer in the log (redacted)',
        '  -h, --help     this text',
        '  --version      the version',
        '',
        'Outputs:',
        ...CLI_OUTPUTS.map(o => `  ${o.name}\n${wrap(o.description, INDENT)}`),
        '',
        'The log goes to stderr. Exit codes: 0 deployed, deleted, or nothing to delete; 1 not deployed',
        '(a failed revision, superseded, unhealthy, timed out: the log says which); 2 invalid flags or',
        'inputs, nothing sent; 130 interrupted.',
        ''
    ].join('\n');
}

// EXTERNAL MODULE: ./src/duration.ts
var duration = __nccwpck_require__(7607);
;// CONCATENATED MODULE: ./src/cli/log.ts
// The CLI's log, on stderr. Every line goes through the Redactor first: there is no runner to mask
// secrets after the fact, so this is all the masking there is. On a terminal one status line
// (the stage and the time since the start) stays under the log and is redrawn in place; anywhere
// else (a CI log, a file) each change is a line of its own and nothing is redrawn.


const CLEAR_LINE = '\r\u001b[2K';
/** How often the status line's elapsed time is redrawn on a terminal. */
const REDRAW_MS = 1000;
class CliLog {
    #stream;
    #redactor;
    #now;
    #started;
    #tty;
    #stage;
    #statusShown = false;
    #timer;
    constructor(options) {
        this.#stream = options.stream;
        this.#redactor = options.redactor;
        this.#now = options.now;
        this.#started = options.now();
        this.#tty = options.stream.isTTY === true;
    }
    /** Hides a value from every later line. */
    mask(value) {
        this.#redactor.add(value);
    }
    info(line) {
        this.#line(line);
    }
    warning(line, title) {
        this.#line(`warning: ${title ? `${title}: ` : ''}${line}`);
    }
    notice(line, title) {
        this.#line(`notice: ${title ? `${title}: ` : ''}${line}`);
    }
    error(line, title) {
        this.#line(`error: ${title ? `${title}: ` : ''}${line}`);
    }
    /** A stage: its name as a line, and on a terminal the status line while it lasts. */
    async group(name, fn) {
        const outer = this.#stage;
        this.#stage = name;
        this.#line(`▸ ${name}`);
        try {
            return await fn();
        }
        finally {
            this.#stage = outer;
            this.#drawStatus();
        }
    }
    /** The status line as drawn now (for a terminal), redacted. */
    statusLine() {
        // Whole seconds: the line is redrawn once a second.
        const elapsed = (0,duration/* formatDuration */.a)(Math.floor((this.#now() - this.#started) / 1000) * 1000);
        const text = this.#redactor.redact(`… ${this.#stage ?? 'Working'} · ${elapsed}`);
        // A terminal that does not say its width (or says 0) is taken as 80 columns.
        const width = (this.#stream.columns || 80) - 1;
        // Wider than the terminal, it would wrap, and `\r` would redraw only its last part.
        return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
    }
    /** Starts redrawing the status line every second (only on a terminal). */
    start() {
        if (!this.#tty || this.#timer)
            return;
        this.#timer = setInterval(() => this.#drawStatus(), REDRAW_MS);
        this.#timer.unref();
        this.#drawStatus();
    }
    /** Removes the status line and stops redrawing it: the log ends as plain lines. */
    stop() {
        if (this.#timer)
            clearInterval(this.#timer);
        this.#timer = undefined;
        this.#clearStatus();
    }
    #line(line) {
        this.#clearStatus();
        this.#stream.write(`${this.#redactor.redact(line)}\n`);
        if (this.#timer)
            this.#drawStatus();
    }
    #drawStatus() {
        if (!this.#timer)
            return;
        this.#stream.write(`${CLEAR_LINE}${this.statusLine()}`);
        this.#statusShown = true;
    }
    #clearStatus() {
        if (!this.#statusShown)
            return;
        this.#stream.write(CLEAR_LINE);
        this.#statusShown = false;
    }
}

;// CONCATENATED MODULE: ./src/cli/outputs.ts
/** One line per output, `name=value`, in the order given; nothing when there is no output. */
function outputLines(outputs) {
    return Object.entries(outputs)
        .map(([name, value]) => `${name}=${value.replace(/\r?\n/g, ' ')}\n`)
        .join('');
}
/** The outputs in the chosen format, as stdout gets them. */
function formatOutputs(outputs, format) {
    return format === 'json' ? `${JSON.stringify(outputs)}\n` : outputLines(outputs);
}
/** `deployment-id` -> `DEPLOYMENT_ID`. */
function dotenvName(output) {
    return output.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}
// Values made of these need no quotes in any dotenv reader; GitLab keeps quotes as part of the
// value, so a value is quoted only when it must be (none of the action's outputs needs it).
const PLAIN = /^[A-Za-z0-9_.:/@+,%=-]*$/;
/** A value as dotenv reads it back: bare when plain, else in double quotes with `\` escapes. */
function dotenvValue(value) {
    if (PLAIN.test(value))
        return value;
    const escaped = value
        .replace(/\\/g, '\\\\')
        .replace(/"/g, '\\"')
        .replace(/\$/g, '\\$')
        .replace(/\r?\n/g, '\\n');
    return `"${escaped}"`;
}
/** The dotenv file: `NAME=value` per output. */
function dotenv(outputs) {
    return Object.entries(outputs)
        .map(([name, value]) => `${dotenvName(name)}=${dotenvValue(value)}\n`)
        .join('');
}

;// CONCATENATED MODULE: ./src/cli/port.ts
function cliPort(o) {
    const { log, env } = o;
    const insideActions = env.GITHUB_ACTIONS === 'true';
    return {
        // Trimmed at both ends, as the runner's inputs are.
        input: name => (o.inputs[name] ?? '').trim(),
        event: o.event,
        mask: value => log.mask(value),
        info: line => log.info(line),
        ...(o.debug ? { debug: (line) => log.info(`debug: ${line}`) } : {}),
        warning: (line, title) => log.warning(line, title),
        notice: (line, title) => log.notice(line, title),
        error: (line, title) => log.error(line, title),
        group: (name, fn) => log.group(name, fn),
        // stdout gets the outputs from the run's result, all at once at the end.
        setOutput: () => undefined,
        ...(insideActions ? { github: { env } } : {}),
        signal: o.signal
    };
}

;// CONCATENATED MODULE: ./src/cli/main.ts
// The CLI from its command line to its exit code: flags and environment -> the port -> the same
// run as the action's -> outputs on stdout (and a dotenv file). Everything it touches outside
// (streams, clock, signals, files) comes in `CliIo`, so tests run it in-process.










/** After the first SIGINT the run has this long to stop and report; then the process exits. */
const STOP_GRACE_MS = 5000;
const HINT = 'Each input is a flag of the same name (--name my-agent, --no-wait) or its CONTROL_PLANE_* variable; ' +
    'the API key comes from CONTROL_PLANE_API_KEY. See control-plane-deploy --help.';
/** What to do on SIGINT and SIGTERM: stop the run, and exit at once on a second signal. */
function interrupts(io, log, controller) {
    let deadline;
    const stopListening = io.onSignal(signal => {
        if (controller.signal.aborted) {
            log.stop();
            io.exit(130);
            return;
        }
        log.info(`Received ${signal}: stopping (again to quit at once).`);
        controller.abort();
        deadline = setTimeout(() => io.exit(130), STOP_GRACE_MS);
        deadline.unref();
    });
    return () => {
        stopListening();
        clearTimeout(deadline);
    };
}
/**
 * The outputs on stdout, and in the dotenv file when asked: the run's exit code, or 1 when the
 * file that a run that worked was to leave cannot be written.
 */
function writeOutputs(result, line, io, log) {
    io.stdout.write(formatOutputs(result.outputs, line.output));
    if (line.outputFile === undefined)
        return result.exitCode;
    try {
        (0,external_node_fs_.writeFileSync)(line.outputFile, dotenv(result.outputs));
        return result.exitCode;
    }
    catch (err) {
        log.error(`Could not write --output-file: ${err instanceof Error ? err.message : String(err)}`);
        return result.exitCode === 0 ? 1 : result.exitCode;
    }
}
async function cli(argv, env, io, run) {
    // Known before anything is printed: the key (and the token) are never shown, whatever happens.
    const redactor = new redact/* Redactor */.pO([env.CONTROL_PLANE_API_KEY, env.GITHUB_TOKEN]);
    const line = parseCommandLine(argv, env);
    if (line.kind === 'help') {
        io.stdout.write(helpText());
        return 0;
    }
    if (line.kind === 'version') {
        io.stdout.write(`${version/* VERSION */.x}\n`);
        return 0;
    }
    if (line.kind === 'usage-error') {
        io.stderr.write(`control-plane-deploy: ${redactor.redact(line.message)}\n`);
        return 2;
    }
    const log = new CliLog({ stream: io.stderr, redactor, now: io.now });
    for (const warning of line.warnings)
        log.warning(warning);
    for (const note of line.notes)
        log.info(note);
    const detected = detectDefaults(env, () => readGit(io.cwd));
    log.info(detected.source);
    const controller = new AbortController();
    const stopListening = interrupts(io, log, controller);
    log.start();
    let result;
    try {
        result = await run(cliPort({
            inputs: line.inputs,
            event: detected.defaults,
            log,
            env,
            signal: controller.signal,
            debug: line.debug
        }));
    }
    catch (err) {
        // run() reports every failure it expects; this is the last guard against a stack trace.
        log.error(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`);
        result = { exitCode: 1, outputs: {} };
    }
    finally {
        stopListening();
        log.stop();
    }
    let exitCode = writeOutputs(result, line, io, log);
    if (exitCode === 2)
        log.info(HINT);
    // Interrupted and not done: the signal, not the failure it caused, is the answer.
    if (controller.signal.aborted && exitCode !== 0)
        exitCode = 130;
    return exitCode;
}


/***/ }),

/***/ 1937:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   a: () => (/* binding */ baseUrlProblem),
/* harmony export */   c: () => (/* binding */ isLoopbackHost)
/* harmony export */ });
/* harmony import */ var node_net__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7030);
/* harmony import */ var node_net__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_net__WEBPACK_IMPORTED_MODULE_0__);
// Where the API key may be sent: https anywhere, plain http only to this machine (the emulator, an
// agent server on the runner). The control plane and the health probes share this rule.

/** Whether a URL's hostname names this machine: 127.0.0.0/8, ::1 or localhost. */
function isLoopbackHost(hostname) {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (host === 'localhost' || host === '::1')
        return true;
    // WHATWG URL parsing already turned short and hex forms (127.1, 0x7f.1) into dotted quads.
    return (0,node_net__WEBPACK_IMPORTED_MODULE_0__.isIP)(host) === 4 && host.startsWith('127.');
}
/** Why a base URL may not carry the key, or undefined when it may. */
function baseUrlProblem(baseUrl) {
    let url;
    try {
        url = new URL(baseUrl);
    }
    catch {
        return 'the base URL is not a URL';
    }
    if (url.username || url.password)
        return 'the base URL must not carry credentials (user:password@): the key goes in its own header';
    if (url.protocol === 'https:')
        return undefined;
    if (url.protocol === 'http:' && isLoopbackHost(url.hostname))
        return undefined;
    return url.protocol === 'http:'
        ? `plain http is refused for ${url.hostname}: the API key would travel unencrypted (use https; http only for localhost, 127.0.0.0/8 and [::1])`
        : `the ${url.protocol} scheme is not supported (use https; http only for localhost, 127.0.0.0/8 and [::1])`;
}


/***/ }),

/***/ 1076:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Cz: () => (/* binding */ isOtherDialectsWord),
/* harmony export */   L8: () => (/* binding */ dialectOfPath),
/* harmony export */   O9: () => (/* binding */ DIALECTS),
/* harmony export */   QW: () => (/* binding */ pathToWire),
/* harmony export */   U: () => (/* binding */ requestToWire),
/* harmony export */   mk: () => (/* binding */ autoDialect),
/* harmony export */   xD: () => (/* binding */ responseFromWire)
/* harmony export */ });
/* unused harmony exports RENAMES, requestFromWire, responseToWire, pathFromWire, valueToWire, valueFromWire, locToWire, locFromWire */
// The two wire dialects of the control plane. `interface` is the contract of this project
// (docs/control-plane.md); `langsmith` is what the production service calls the same things
// (docs/control-plane.md, "Two dialects"). They differ only on the wire, so this
// file is the only place that knows both vocabularies: the client translates its requests and
// answers here, the emulator its parsing and rendering. Everything else speaks `interface`.
//
// Each rename is a swap of two names, so translating is its own inverse: the same function turns
// interface vocabulary into the wire and the wire back into interface vocabulary. A swap (rather
// than a one-way rename) also keeps a wrong word wrong: `codehost` sent to a `langsmith` server
// reads as `github` in interface vocabulary, which the interface model rejects, as production
// rejects `codehost`; a stray `graph_config_path` becomes `langgraph_config_path`, an unknown field
// that the model strips, as production ignores it.
const DIALECTS = ['interface', 'langsmith'];
/** The one table of renames: interface name -> langsmith name. */
const RENAMES = {
    /** Values of `source` and `revision_source` (of a deployment, a patch and a revision). */
    sourceValues: { codehost: 'github' },
    /** Field names inside `source_revision_config`. */
    sourceRevisionConfigFields: { graph_config_path: 'langgraph_config_path' },
    /** Path prefixes. */
    pathPrefixes: {
        '/v1/integrations/forge/codehost/': '/v1/integrations/forge/github/',
        /** The older, non-forge integration paths (the list of integrations, their repositories). */
        '/v1/integrations/codehost/': '/v1/integrations/github/'
    }
};
/** The dialect whose own words `path` uses, for the paths the two name differently. */
function dialectOfPath(path) {
    for (const [iface, langsmith] of Object.entries(RENAMES.pathPrefixes)) {
        if (path.startsWith(iface))
            return 'interface';
        if (path.startsWith(langsmith))
            return 'langsmith';
    }
    return undefined;
}
/** The table as swaps in both directions, for the langsmith dialect. */
function swaps(table) {
    const map = new Map();
    for (const [a, b] of Object.entries(table))
        map.set(a, b).set(b, a);
    return map;
}
const SOURCE_VALUES = swaps(RENAMES.sourceValues);
const SRC_FIELDS = swaps(RENAMES.sourceRevisionConfigFields);
const PATH_PREFIXES = swaps(RENAMES.pathPrefixes);
/** Keys whose value is a source name. */
const SOURCE_KEYS = new Set(['source', 'revision_source']);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** One resource or request body (a Deployment, a Revision, a create or patch request). */
function swapResource(value) {
    if (!isObject(value))
        return value;
    const out = {};
    for (const [key, v] of Object.entries(value)) {
        if (SOURCE_KEYS.has(key) && typeof v === 'string')
            out[key] = SOURCE_VALUES.get(v) ?? v;
        else if (key === 'source_revision_config' && isObject(v))
            out[key] = renameKeys(v, SRC_FIELDS);
        else
            out[key] = v;
    }
    return out;
}
function renameKeys(obj, names) {
    const out = {};
    for (const [key, v] of Object.entries(obj))
        out[names.get(key) ?? key] = v;
    return out;
}
/**
 * Swaps the vocabulary of a body: a resource, a request, a list of resources (an array, or an
 * object with `resources`). Only the places the table names are touched (never secrets, labels or
 * other free maps). Identity in the `interface` dialect; a new object, the input is not changed.
 */
function swapBody(dialect, body) {
    if (dialect === 'interface')
        return body;
    if (Array.isArray(body))
        return body.map(swapResource);
    if (isObject(body) && Array.isArray(body.resources))
        return { ...body, resources: body.resources.map(swapResource) };
    return swapResource(body);
}
/** Client side: a request body in interface vocabulary, as the wire of `dialect` names it. */
function requestToWire(dialect, body) {
    return swapBody(dialect, body);
}
/** Client side: an answer body from the wire of `dialect`, in interface vocabulary. */
function responseFromWire(dialect, body) {
    return swapBody(dialect, body);
}
/** Server side: a request body read from the wire of `dialect`, in interface vocabulary. */
function requestFromWire(dialect, body) {
    return swapBody(dialect, body);
}
/** Server side: an answer body in interface vocabulary, as the wire of `dialect` names it. */
function responseToWire(dialect, body) {
    return swapBody(dialect, body);
}
/**
 * A request path (no query string) between the vocabularies; its own inverse, like the bodies.
 * Client: interface path -> wire path. Server: wire path -> interface path (so that a server in
 * the `langsmith` dialect routes `/forge/github/` and answers 404 to `/forge/codehost/`).
 */
function pathToWire(dialect, path) {
    if (dialect === 'interface')
        return path;
    for (const [from, to] of PATH_PREFIXES) {
        if (path.startsWith(from))
            return to + path.slice(from.length);
    }
    return path;
}
const pathFromWire = (/* unused pure expression or super */ null && (pathToWire));
/**
 * Whether two source names are one source in the two dialects' words (`codehost` and `github`):
 * a deployment read through the wrong dialect shows the other word.
 */
function isOtherDialectsWord(read, asked) {
    return SOURCE_VALUES.get(read) === asked;
}
/** One enum value (a source name) between the vocabularies; other values pass unchanged. */
function valueToWire(dialect, value) {
    return dialect === 'interface' ? value : (SOURCE_VALUES.get(value) ?? value);
}
const valueFromWire = (/* unused pure expression or super */ null && (valueToWire));
/**
 * A validation error's `loc` (`['body', 'source_revision_config', 'graph_config_path']`) between
 * the vocabularies: the field names of `source_revision_config` are swapped, nothing else.
 */
function locToWire(dialect, loc) {
    if (dialect === 'interface')
        return [...loc];
    return loc.map((part, i) => typeof part === 'string' && loc[i - 1] === 'source_revision_config'
        ? (SRC_FIELDS.get(part) ?? part)
        : part);
}
const locFromWire = (/* unused pure expression or super */ null && (locToWire));
const PRODUCTION_HOST = 'api.host.langchain.com';
/**
 * What `api-dialect: auto` speaks to `baseUrl`, and why, in words for the job log: `langsmith` for
 * the hosted service (`api.host.langchain.com` and its regions, `*.api.host.langchain.com`) and for
 * a self-hosted installation (a base-url path ending in `/api-host`), `interface` otherwise.
 */
function autoDialect(baseUrl) {
    let url;
    try {
        url = new URL(baseUrl);
    }
    catch {
        return { dialect: 'interface', reason: 'the base URL could not be read' };
    }
    const host = url.hostname.toLowerCase().replace(/\.$/, '');
    if (host === PRODUCTION_HOST || host.endsWith(`.${PRODUCTION_HOST}`))
        return { dialect: 'langsmith', reason: `${url.host} is the hosted service` };
    if (/\/api-host$/.test(url.pathname.replace(/\/+$/, '')))
        return {
            dialect: 'langsmith',
            reason: 'the base URL ends in /api-host, as a self-hosted installation does'
        };
    return {
        dialect: 'interface',
        reason: `${url.host} is neither the hosted service nor an /api-host path; set \`api-dialect: langsmith\` if it speaks the production names`
    };
}


/***/ }),

/***/ 7889:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   c8: () => (/* binding */ sanitizeServerText),
/* harmony export */   pO: () => (/* binding */ Redactor),
/* harmony export */   vb: () => (/* binding */ MIN_SECRET_LENGTH),
/* harmony export */   yA: () => (/* binding */ capText)
/* harmony export */ });
// Secret values never leave the process in text we write: every message, log line and debug dump
// built from a request or a response goes through a Redactor that knows the key and the secrets.
/**
 * Shorter values are neither masked nor redacted: one to three characters (`1`, `eu`, `dev`)
 * occur all through ordinary log text, so masking them would make the job's whole log unreadable,
 * and a value that short is guessed, not protected, anyway. The action never prints secret values
 * itself; the entry layer warns by name about the values this leaves unmasked.
 */
const MIN_SECRET_LENGTH = 4;
class Redactor {
    #values = new Set();
    constructor(values = []) {
        for (const v of values)
            this.add(v);
    }
    /** Adds a value (and each of its lines: a multi-line secret leaks line by line too). */
    add(value) {
        if (!value)
            return;
        for (const part of [value, ...value.split(/\r?\n/)]) {
            const trimmed = part.trim();
            if (trimmed.length >= MIN_SECRET_LENGTH)
                this.#values.add(trimmed);
        }
    }
    /** The values this redactor replaces, longest first: the ones to register as masks. */
    get values() {
        return [...this.#values].sort((a, b) => b.length - a.length);
    }
    redact(text) {
        let out = text;
        // Longest first, so a secret that contains another is replaced whole.
        for (const v of [...this.#values].sort((a, b) => b.length - a.length)) {
            if (out.includes(v))
                out = out.split(v).join('***');
            const encoded = encodeURIComponent(v);
            if (encoded !== v && out.includes(encoded))
                out = out.split(encoded).join('***');
            const json = JSON.stringify(v).slice(1, -1);
            if (json !== v && out.includes(json))
                out = out.split(json).join('***');
        }
        return out;
    }
}
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/**
 * Makes text from the server safe to print in a job log: terminal escape codes removed, line
 * breaks and other control characters folded into one space (so nothing starts a line and acts as
 * a workflow command), `::` and `##[` broken up (the runner still reads the older `##[name]`
 * commands anywhere in a line), and the length capped.
 */
function sanitizeServerText(text, max = 500) {
    let out = text
        .replace(ESCAPE_SEQUENCE, '')
        .replace(CONTROL, ' ')
        .replace(/:(?=:)/g, ': ')
        .replace(/#(?=#\[)/g, '# ')
        .trim();
    if (out.length > max)
        out = `${out.slice(0, max)}… (${out.length - max} more characters)`;
    return out;
}
/** Cuts text to `max` characters and says how much was left out; nothing else is changed. */
function capText(text, max) {
    return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}


/***/ }),

/***/ 8072:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Hl: () => (/* binding */ SOURCES),
/* harmony export */   JJ: () => (/* binding */ UUID_PATTERN),
/* harmony export */   Jy: () => (/* binding */ REVISION_SOURCES),
/* harmony export */   PB: () => (/* binding */ DEPLOYMENT_STATUSES),
/* harmony export */   T1: () => (/* binding */ DEPLOYMENT_NAME_PATTERN),
/* harmony export */   VF: () => (/* binding */ FAILED_REVISION_STATUSES),
/* harmony export */   XQ: () => (/* binding */ CLOUD_SOURCES),
/* harmony export */   X_: () => (/* binding */ REVISION_STATUSES),
/* harmony export */   _o: () => (/* binding */ DEPLOYMENT_TYPES),
/* harmony export */   di: () => (/* binding */ RESERVED_SECRET_NAMES),
/* harmony export */   qU: () => (/* binding */ revisionOutcome),
/* harmony export */   to: () => (/* binding */ CREATE_ONLY_SOURCE_CONFIG_FIELDS),
/* harmony export */   vx: () => (/* binding */ RESERVED_SECRET_NAMES_HOSTED)
/* harmony export */ });
// The words and rules of the control-plane interface that need no zod: the enums, the reserved
// names, the patterns of names and ids, what a revision status means. The zod model
// (schema.ts) is built from these and re-exports them; the inputs and the deploy flow import
// them from here, so that the action reaches its first request without loading zod (the client
// loads the model when the first answer is read: load-schema.ts).
const SOURCES = [
    'codehost',
    'external_docker',
    'internal_docker',
    'internal_source',
    'internal_template'
];
/** Sources only available for cloud-hosted deployments; `external_docker` is self-hosted only. */
const CLOUD_SOURCES = [
    'codehost',
    'internal_docker',
    'internal_source',
    'internal_template'
];
const REVISION_SOURCES = ['codehost', 'internal_docker', 'internal_source'];
const DEPLOYMENT_STATUSES = [
    'AWAITING_DATABASE',
    'READY',
    'UNUSED',
    'AWAITING_DELETE',
    'UNKNOWN'
];
/** Revision statuses of the production service, in their usual order, then the terminal ones. */
const REVISION_STATUSES = [
    'CREATING',
    'QUEUED',
    'AWAITING_BUILD',
    'BUILDING',
    'AWAITING_DEPLOY',
    'DEPLOYING',
    'DEPLOYED',
    'CREATE_FAILED',
    'BUILD_FAILED',
    'DEPLOY_FAILED',
    'SKIPPED',
    'INTERRUPTED',
    'UNKNOWN'
];
const FAILED_REVISION_STATUSES = ['CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'];
/** What a revision status means for someone waiting on it. Unknown values are in progress. */
function revisionOutcome(status) {
    if (status === 'DEPLOYED')
        return 'deployed';
    if (FAILED_REVISION_STATUSES.includes(status))
        return 'failed';
    if (status === 'SKIPPED')
        return 'skipped';
    return 'in_progress';
}
/**
 * The published description lists `dev_free`, `dev` and `prod`; the service's own Terraform
 * provider also sends `dev_zero` and `dev_free_zero` (the types that may scale to zero), so they
 * are accepted too (docs/decisions.md).
 */
const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'];
/**
 * Fields that the production service sets on create and never changes after: a PATCH that names
 * them with another value is refused (a deployment cannot be moved to another repository, plan,
 * or listener), so the action refuses such an update before any request.
 */
const CREATE_ONLY_SOURCE_CONFIG_FIELDS = [
    'integration_id',
    'repo_url',
    'deployment_type',
    'listener_id'
];
/** Names the platform sets itself; a deployment secret may not use them. */
const RESERVED_SECRET_NAMES = [
    'PORT',
    'PATH',
    'DATABASE_URI',
    'POSTGRES_URI',
    'REDIS_URI',
    'LANGSMITH_TENANT_ID',
    'LANGSMITH_DEPLOYMENT_NAME',
    'LANGCHAIN_TRACING_V2',
    'LANGSMITH_PROJECT',
    'LANGCHAIN_API_KEY'
];
/** Reserved on hosted (cloud) deployments in addition to the names above. */
const RESERVED_SECRET_NAMES_HOSTED = ['LANGSMITH_API_KEY', 'LANGSMITH_ENDPOINT'];
/** Lowercase letters, digits and hyphens, starting with a letter. */
const DEPLOYMENT_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/**
 * A uuid as the service writes it, any version: ids are opaque to us. The pattern of zod's
 * `z.guid()`, which the model's `Uuid` is (a test holds the two together).
 */
const UUID_PATTERN = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;


/***/ }),

/***/ 7607:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E: () => (/* binding */ parseDuration),
/* harmony export */   a: () => (/* binding */ formatDuration)
/* harmony export */ });
// Durations as users write them in workflow files (`90s`, `15m`, `1h30m`, plain seconds `600`)
// and as the action prints them in logs (`1h30m`, `2m05s`).
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Hours, minutes and seconds in this order, each optional, at least one present. */
const UNITS = /^(?:(\d{1,15})h)?(?:(\d{1,15})m)?(?:(\d{1,15})s)?$/i;
const PLAIN_SECONDS = /^\d{1,15}$/;
/**
 * Milliseconds of `90s`, `15m`, `1h`, `1h30m`, `2h15m30s` or plain seconds (`600`); units are
 * case-insensitive. `undefined` for anything else: empty text, a sign, a fraction, spaces inside,
 * words (`10 minutes`), or a value too large to be exact. Zero (`0`, `0s`) parses to 0: whether
 * zero makes sense is the caller's decision.
 */
function parseDuration(text) {
    const t = text.trim();
    if (t === '')
        return undefined;
    let ms;
    if (PLAIN_SECONDS.test(t)) {
        ms = Number(t) * SECOND;
    }
    else {
        const m = UNITS.exec(t);
        if (!m)
            return undefined;
        const [, h, min, s] = m;
        if (h === undefined && min === undefined && s === undefined)
            return undefined;
        ms = Number(h ?? 0) * HOUR + Number(min ?? 0) * MINUTE + Number(s ?? 0) * SECOND;
    }
    return Number.isSafeInteger(ms) ? ms : undefined;
}
const pad = (n) => String(n).padStart(2, '0');
/**
 * Short human text for logs: `45s`, `2m05s`, `30m`, `1h`, `1h30m`, `1h02m05s`; under a second
 * `250ms`; zero, negative or not a number `0s`. Rounded to whole seconds from one second up.
 */
function formatDuration(ms) {
    if (!Number.isFinite(ms) || ms <= 0)
        return '0s';
    if (Math.round(ms) < SECOND)
        return `${Math.max(1, Math.round(ms))}ms`;
    const total = Math.round(ms / SECOND);
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    if (h > 0)
        return `${h}h` + (m > 0 || s > 0 ? `${pad(m)}m` : '') + (s > 0 ? `${pad(s)}s` : '');
    if (m > 0)
        return `${m}m` + (s > 0 ? `${pad(s)}s` : '');
    return `${s}s`;
}


/***/ }),

/***/ 807:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   N5: () => (/* binding */ readEventPayload),
/* harmony export */   Vo: () => (/* binding */ eventDefaults),
/* harmony export */   YK: () => (/* binding */ forkPullRequestMessage)
/* harmony export */ });
/* unused harmony exports UNKNOWN_FORK, MAX_EVENT_PAYLOAD_BYTES */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
// The triggering event -> the default `ref`, the commit the revision is expected to build, and the
// repository (the "default ref" table of the action's interface). Pure apart from
// `readEventPayload`, which reads the event file the runner writes.

/** What `forkHead` says when the payload has no head repository (a deleted fork). */
const UNKNOWN_FORK = 'an unknown repository';
/**
 * Why a fork pull request stops before any write unless `repository` and `ref` are both set, and
 * what to do; the inputs layer reports it as the error of the run.
 */
function forkPullRequestMessage(forkHead, repository) {
    const base = repository ? `\`${repository}\`` : "the workflow's repository";
    const head = forkHead === UNKNOWN_FORK ? 'a fork that no longer exists' : `the fork \`${forkHead}\``;
    return (`This pull request comes from ${head}: its head branch is not in ${base}, which is what the ` +
        'integration builds by default, so the default `ref` would deploy a same-named branch of ' +
        `${base}, or fail. Nothing was written. To preview pull requests from forks, use a trusted ` +
        'workflow (for example `pull_request_target` with an environment that requires a reviewer) and ' +
        'set both `repository` and `ref` explicitly; to skip forks, add ' +
        '`if: github.event.pull_request.head.repo.full_name == github.repository` to the job.');
}
/** Larger event files are ignored (the runner's payloads are far smaller). */
const MAX_EVENT_PAYLOAD_BYTES = 25 * 1024 * 1024;
const TAG_PREFIX = 'refs/tags/';
const BRANCH_PREFIX = 'refs/heads/';
const PULL_PREFIX = 'refs/pull/';
const ZERO_SHA = /^0+$/;
/** A non-empty string or undefined. */
function text(value) {
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
/** `payload.a.b.c` without trusting the payload's shape. */
function at(payload, ...path) {
    let node = payload;
    for (const key of path) {
        if (typeof node !== 'object' || node === null || Array.isArray(node))
            return undefined;
        node = node[key];
    }
    return node;
}
/** A commit id, or undefined for none or the all-zero id of a deleted ref. */
function sha(value) {
    const s = text(value);
    return s !== undefined && !ZERO_SHA.test(s) ? s : undefined;
}
/** A pull request's number from the payload (`pull_request.number`, else `number`). */
function pullRequestNumber(payload) {
    const n = at(payload, 'pull_request', 'number') ?? at(payload, 'number');
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
/**
 * The head repository when it is not the base repository: compared by full name, case-blind as
 * GitHub's names are (a same-repository pull request in a repository that is itself a fork has
 * `head.repo.fork` true, so that flag alone proves nothing). Undefined when the payload does not
 * say (no `pull_request` in it): nothing is guessed.
 */
function forkHeadOf(payload, repository) {
    const pr = at(payload, 'pull_request');
    if (typeof pr !== 'object' || pr === null)
        return undefined;
    const headRepo = at(pr, 'head', 'repo');
    // GitHub sends `head.repo: null` when the fork has been deleted.
    if (headRepo === null)
        return UNKNOWN_FORK;
    const head = text(at(headRepo, 'full_name'));
    const base = text(at(pr, 'base', 'repo', 'full_name')) ?? repository;
    if (head === undefined || base === undefined)
        return undefined;
    return head.toLowerCase() === base.toLowerCase() ? undefined : head;
}
/** `refs/tags/x` as is, `refs/heads/x` -> `x`; `refNameFallback` when the ref is neither. */
function refFromGithubRef(ref, refName) {
    if (ref?.startsWith(TAG_PREFIX) && ref.length > TAG_PREFIX.length)
        return ref;
    if (ref?.startsWith(BRANCH_PREFIX) && ref.length > BRANCH_PREFIX.length) {
        return refName ?? ref.slice(BRANCH_PREFIX.length);
    }
    return refName;
}
/**
 * The default `ref`, expected commit and repository for the triggering event:
 * - push: the branch name, or `refs/tags/<tag>` for a tag; expected `GITHUB_SHA`;
 * - release: `refs/tags/<release.tag_name>` from the payload; expected `GITHUB_SHA`;
 * - pull_request, pull_request_target (and any event that runs on `refs/pull/...`): the head
 *   branch (`GITHUB_HEAD_REF`); expected the head commit of the pull request from the payload, not
 *   the merge commit in `GITHUB_SHA`;
 * - anything else (workflow_dispatch, schedule, ...): `GITHUB_REF_NAME` as a branch, or
 *   `refs/tags/...` when `GITHUB_REF` is a tag; expected `GITHUB_SHA`.
 * A push that deletes its ref (all-zero commit) has no expected commit. On a pull request, also
 * its number and, when it comes from a fork, the fork (`forkHead`).
 */
function eventDefaults(env, payload) {
    const eventName = text(env.GITHUB_EVENT_NAME);
    const githubRef = text(env.GITHUB_REF);
    const refName = text(env.GITHUB_REF_NAME);
    const githubSha = sha(env.GITHUB_SHA);
    const repository = text(env.GITHUB_REPOSITORY);
    const result = {};
    if (repository !== undefined)
        result.repository = repository;
    let ref;
    let expectedSha;
    if (eventName === 'pull_request' ||
        eventName === 'pull_request_target' ||
        githubRef?.startsWith(PULL_PREFIX)) {
        ref = text(env.GITHUB_HEAD_REF) ?? text(at(payload, 'pull_request', 'head', 'ref'));
        expectedSha = sha(at(payload, 'pull_request', 'head', 'sha'));
        const number = pullRequestNumber(payload);
        if (number !== undefined)
            result.pullRequestNumber = number;
        const fork = forkHeadOf(payload, repository);
        if (fork !== undefined)
            result.forkHead = fork;
    }
    else if (eventName === 'release') {
        const tag = text(at(payload, 'release', 'tag_name'));
        ref = tag !== undefined ? TAG_PREFIX + tag : refFromGithubRef(githubRef, undefined);
        expectedSha = githubSha;
    }
    else {
        ref = refFromGithubRef(githubRef, refName);
        expectedSha = eventName === 'push' && at(payload, 'deleted') === true ? undefined : githubSha;
    }
    if (ref !== undefined)
        result.ref = ref;
    if (expectedSha !== undefined)
        result.expectedSha = expectedSha;
    return result;
}
/**
 * The event payload at `GITHUB_EVENT_PATH` as an object; `{}` when the variable is unset or the
 * file is missing, unreadable, larger than 25 MB, not JSON, or not a JSON object.
 */
function readEventPayload(env) {
    const path = text(env.GITHUB_EVENT_PATH);
    if (path === undefined)
        return {};
    try {
        const stat = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync)(path);
        if (!stat.isFile() || stat.size > MAX_EVENT_PAYLOAD_BYTES)
            return {};
        const parsed = JSON.parse((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(path, 'utf8'));
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
            ? parsed
            : {};
    }
    catch {
        // No payload, or not JSON: the defaults come from the environment alone.
        return {};
    }
}


/***/ }),

/***/ 1068:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   b: () => (/* binding */ ACTION_INPUTS),
/* harmony export */   c: () => (/* binding */ ACTION_OUTPUTS)
/* harmony export */ });
// Generated by `npm run readme` from action.yml: edit action.yml, not this file (`npm test`
// fails when they differ). The names, defaults and descriptions of the inputs and outputs, for
// the inputs table (table.ts), the outputs every run writes, and the command line.
const ACTION_INPUTS = {
    'api-key': {
        description: 'Control plane API key, sent as X-Api-Key. Pass it from a secret; it is masked at once.',
        required: true
    },
    'tenant-id': {
        description: 'Workspace id (uuid), sent as X-Tenant-Id when set (needed with organization-scoped keys).',
        required: false
    },
    'base-url': {
        description: 'Control plane base URL; may carry a path (https://host/api-host). https only, except localhost, 127.0.0.0/8 and [::1].',
        required: false,
        default: 'https://api.host.langchain.com'
    },
    name: {
        description: 'Deployment name (lowercase letters, digits, hyphens; starts with a letter; at most 63). Found by exact name, created when missing. Required unless deployment-id is set.',
        required: false
    },
    'deployment-id': {
        description: 'Target this deployment by id instead of by name (no lookup, never creates).',
        required: false
    },
    source: {
        description: "One of codehost, external_docker, internal_docker, internal_source, internal_template. Used on create; on update it must equal the deployment's source.",
        required: false,
        default: 'codehost'
    },
    'integration-id': {
        description: 'Forge integration id (uuid). Needed to create a codehost deployment.',
        required: false
    },
    repository: {
        description: "Repository (owner/name) to deploy, resolved through the forge repos endpoint. Defaults to the workflow's repository.",
        required: false
    },
    ref: {
        description: "Branch name or refs/tags/<tag> to deploy (repo_ref). Defaults from the event - the pushed branch or tag, the release tag, or the pull request's head branch.",
        required: false
    },
    'graph-config-path': {
        description: 'Path of the graph configuration file in the repository (source_revision_config.graph_config_path).',
        required: false,
        default: 'langgraph.json'
    },
    'image-uri': {
        description: 'Image to deploy (source_revision_config.image_uri) for external_docker and internal_docker.',
        required: false
    },
    secrets: {
        description: 'Deployment secrets as NAME=VALUE lines (blank lines and # comments ignored) or a JSON object {"NAME": "value"}. Every value is masked. Empty keeps the current secrets.',
        required: false
    },
    'secret-references': {
        description: 'YAML or JSON list of {name, secret_name, secret_key} (external_docker only).',
        required: false
    },
    'resource-spec': {
        description: 'YAML or JSON object with the resource spec (replaces the current one as a whole on update).',
        required: false
    },
    'build-on-push': {
        description: 'true or false for source_config.build_on_push (codehost; must not be true for a tag ref).',
        required: false
    },
    'custom-url': { description: 'source_config.custom_url of the deployment.', required: false },
    'listener-id': {
        description: 'source_config.listener_id (uuid) of the self-hosted listener (external_docker).',
        required: false
    },
    'k8s-namespace': {
        description: 'Kubernetes namespace for the listener (source_config.listener_config.k8s_namespace, external_docker).',
        required: false
    },
    'install-command': { description: 'source_config.install_command.', required: false },
    'build-command': { description: 'source_config.build_command.', required: false },
    'revision-source': {
        description: 'revision_source of the update - codehost, internal_docker or internal_source.',
        required: false
    },
    create: {
        description: 'Create the deployment when no deployment has this name; false fails instead.',
        required: false,
        default: 'true'
    },
    wait: {
        description: 'Poll the new revision until it is DEPLOYED, failed, superseded, or the timeout.',
        required: false,
        default: 'true'
    },
    timeout: {
        description: 'Longest wait for the revision - 90s, 15m, 1h, 1h30m or plain seconds (at most 6h).',
        required: false,
        default: '30m'
    },
    'poll-interval': {
        description: 'Longest pause between two polls (polling starts faster and backs off to this); at least 1s. Default 15s, or the timeout when shorter.',
        required: false
    },
    'dry-run': {
        description: 'Resolve everything and print the plan (create or update, and what changes); write nothing.',
        required: false,
        default: 'false'
    },
    'github-token': {
        description: 'Token for the GitHub REST API, used with environment (deployments write) and pr-comment (pull-requests write). Masked at once.',
        required: false,
        default: '${{ github.token }}'
    },
    environment: {
        description: "GitHub environment to record this deploy in - a GitHub deployment for the commit, in_progress while it runs, then success, failure, error or inactive (shown on the repository's Deployments page and in pull requests). Empty - no GitHub deployment.",
        required: false
    },
    'environment-url': {
        description: "URL that the GitHub deployment shows for the environment; defaults to the deployment's custom-url.",
        required: false
    },
    'api-dialect': {
        description: 'Wire names to speak - interface, langsmith, or auto (langsmith for the hosted api.host.langchain.com and base URLs ending in /api-host).',
        required: false,
        default: 'auto'
    },
    'deployment-type': {
        description: 'dev_free, dev, prod, dev_zero or dev_free_zero (source_config.deployment_type) on create. It cannot change; a differing value on update is an error.',
        required: false
    },
    command: {
        description: 'deploy, or delete - delete the deployment of this exact name (or deployment-id); none of that name is a success.',
        required: false,
        default: 'deploy'
    },
    'delete-tracing-project': {
        description: 'With command delete - delete its tracing project too, which frees the name for re-creation.',
        required: false,
        default: 'false'
    },
    'on-failure': {
        description: 'fail, or rollback - when the new revision fails, redeploy the revision active before this run and wait for it. The job still fails.',
        required: false,
        default: 'fail'
    },
    'failure-logs': {
        description: "Lines of a failed revision's build or deploy log to show in the log and the job summary; 0 turns it off.",
        required: false,
        default: '50'
    },
    'pr-comment': {
        description: 'On pull_request events - one comment per deployment name, updated in place, with status, url, revision and commit. Needs github-token.',
        required: false,
        default: 'false'
    },
    'health-check': {
        description: 'After DEPLOYED, probe the agent server - true is GET {custom_url}/ok, or give a path (/ok?check_db=1). Https or loopback only; no redirect followed.',
        required: false,
        default: 'false'
    },
    'health-check-window': {
        description: 'After the first 2xx, every probe (about every 5s) this long must be 2xx. Before it, probes go on until timeout.',
        required: false,
        default: '30s'
    }
};
const ACTION_OUTPUTS = {
    'deployment-id': { description: 'Id of the deployment created or updated.' },
    'revision-id': {
        description: 'Id of the revision this run created (empty when it created none).'
    },
    'revision-status': {
        description: 'Last revision status seen - DEPLOYED, a failure status, SKIPPED, or the in-progress status at the timeout.'
    },
    'deployment-status': { description: "The deployment's status at the end." },
    created: { description: 'true when this run created the deployment, else false.' },
    url: { description: "The deployment's source_config.custom_url, when it has one." },
    'repo-commit-sha': { description: 'The commit the revision built, when the service reports it.' },
    'github-deployment-id': {
        description: 'Id of the GitHub deployment this run created (only with environment), else empty.'
    },
    deleted: {
        description: 'true when this run deleted the deployment (command delete), else false.'
    },
    'rollback-revision-id': {
        description: "The revision the rollback's redeploy started and followed to its end (empty when none)."
    },
    'rollback-status': { description: 'Its last status - DEPLOYED when the rollback worked.' },
    health: {
        description: 'healthy, unhealthy, unavailable (every probe 404), or empty when no check ran.'
    }
};


/***/ }),

/***/ 5847:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Bj: () => (/* binding */ parseResourceSpec),
/* harmony export */   Zr: () => (/* binding */ parseDocumentInput),
/* harmony export */   fq: () => (/* binding */ loadDocumentParser),
/* harmony export */   qv: () => (/* binding */ parseSecretReferences)
/* harmony export */ });
/* harmony import */ var _names_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5585);


let parser;
/** Loads the document parser (once); `raw` given, only when one of its document inputs is set. */
async function loadDocumentParser(raw) {
    if (raw && !_names_js__WEBPACK_IMPORTED_MODULE_0__/* .DOCUMENT_INPUTS */ .aw.some(name => isSet(raw, name)))
        return;
    parser ??= await Promise.all(/* import() */[__nccwpck_require__.e(567), __nccwpck_require__.e(815), __nccwpck_require__.e(591)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2591));
}
const isSet = (raw, name) => (raw[name] ?? '').trim() !== '' || (0,_names_js__WEBPACK_IMPORTED_MODULE_0__/* .defaultOf */ .HA)(name) !== '';
function loaded() {
    if (parser === undefined) {
        throw new Error('A YAML/JSON input was read before loadDocumentParser() loaded its parser.');
    }
    return parser;
}
/** See document-parser.ts. */
const parseDocumentInput = (...args) => loaded().parseDocumentInput(...args);
function parseSecretReferences(v, fail) {
    return v === '' ? undefined : loaded().parseSecretReferences(v, fail);
}
function parseResourceSpec(v, fail) {
    return v === '' ? undefined : loaded().parseResourceSpec(v, fail);
}


/***/ }),

/***/ 6543:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E_: () => (/* binding */ parseHealthCheckWindow),
/* harmony export */   Kx: () => (/* binding */ parseHealthCheck),
/* harmony export */   b6: () => (/* binding */ healthProblems)
/* harmony export */ });
/* unused harmony exports DEFAULT_HEALTH_PATH, DEFAULT_HEALTH_WINDOW, MAX_HEALTH_WINDOW_MS, MAX_HEALTH_PATH_LENGTH */
/* harmony import */ var _duration_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7607);
// The health gate's two inputs, each checked on its own, and how they fit the others: which path
// `health-check` probes (`true` is the agent server's `/ok`), and the window of `2xx` after the
// first one. The inputs table wires them in; nothing here knows where inputs come from.

const DEFAULT_HEALTH_PATH = '/ok';
const DEFAULT_HEALTH_WINDOW = '30s';
const MAX_HEALTH_WINDOW_MS = 60 * 60 * 1000;
const MAX_HEALTH_PATH_LENGTH = 2048;
const TRUE_VALUES = ['true', 'True', 'TRUE'];
const FALSE_VALUES = ['false', 'False', 'FALSE'];
const NOT_IN_PATH = /[\s\u0000-\u001f\u007f#\\]/;
/**
 * `health-check`: the path to probe, `false` when off. `true` is `/ok`; a value starting with `/`
 * is that path with its query (`/ok?check_db=1`).
 */
function parseHealthCheck(v, fail) {
    if (v === '' || FALSE_VALUES.includes(v))
        return false;
    if (TRUE_VALUES.includes(v))
        return DEFAULT_HEALTH_PATH;
    const expected = '`health-check` must be `true`, `false`, or a path on the agent server starting with `/` (e.g. `/ok?check_db=1`)';
    if (!v.startsWith('/'))
        return fail(expected);
    if (v.startsWith('//'))
        return fail(`${expected}; \`//\` would read as another host`);
    if (NOT_IN_PATH.test(v))
        return fail(`${expected}, without spaces, line breaks, \`#\` or \`\\\``);
    if (v.length > MAX_HEALTH_PATH_LENGTH)
        return fail(`${expected}, at most ${MAX_HEALTH_PATH_LENGTH} characters`);
    return v;
}
/** `health-check-window`: ms of 2xx required after the first one; 0 = the first 2xx is enough. */
function parseHealthCheckWindow(v, fail) {
    const ms = (0,_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .parseDuration */ .E)(v === '' ? DEFAULT_HEALTH_WINDOW : v);
    if (ms === undefined)
        return fail('`health-check-window` must be a duration like `30s`, `2m` or plain seconds (`45`); `0` accepts the first 2xx');
    if (ms > MAX_HEALTH_WINDOW_MS)
        return fail(`\`health-check-window\` must be at most ${(0,_duration_js__WEBPACK_IMPORTED_MODULE_0__/* .formatDuration */ .a)(MAX_HEALTH_WINDOW_MS)}: the job waits that long after the first 2xx`);
    return ms;
}
/** How the gate fits the other inputs: [input, problem] pairs, empty when it fits. */
function healthProblems(f) {
    const problems = [];
    if (!f.healthPath)
        return problems;
    if (f.command === 'delete')
        problems.push([
            'health-check',
            '`health-check` applies only to deploying, not to `command: delete`'
        ]);
    else if (f.wait === false)
        problems.push([
            'health-check',
            '`health-check` needs `wait: true`: the agent server is asked only after the revision is DEPLOYED'
        ]);
    return problems;
}


/***/ }),

/***/ 5585:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   G1: () => (/* binding */ ENV_NAME),
/* harmony export */   HA: () => (/* binding */ defaultOf),
/* harmony export */   Qh: () => (/* binding */ INPUT_NAMES),
/* harmony export */   Wi: () => (/* binding */ isUnevaluatedDefault),
/* harmony export */   aw: () => (/* binding */ DOCUMENT_INPUTS)
/* harmony export */ });
/* harmony import */ var _action_yml_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1068);
// The names of the action's inputs, as action.yml declares them (through the generated
// action-yml.ts), the raw text a run is given for them, and the form of a secret's name.

/** Every input, in action.yml's order. */
const INPUT_NAMES = Object.keys(_action_yml_js__WEBPACK_IMPORTED_MODULE_0__/* .ACTION_INPUTS */ .b);
/** The inputs that may hold a YAML/JSON document: a larger size cap, and the parser loaded for them. */
const DOCUMENT_INPUTS = [
    'secrets',
    'secret-references',
    'resource-spec'
];
/**
 * action.yml's default of an input, as the runner applies it; `''` when it has none, or when the
 * default is an expression only the runner can evaluate (`${{ github.token }}`).
 */
function defaultOf(name) {
    const input = _action_yml_js__WEBPACK_IMPORTED_MODULE_0__/* .ACTION_INPUTS */ .b[name];
    const value = 'default' in input ? input.default : '';
    return value.includes('${{') ? '' : value;
}
/**
 * Whether `value` is the input's default expression as action.yml writes it (`${{ github.token }}`):
 * what a runner that does not evaluate expressions passes (`@github/local-action`); it counts as
 * not set.
 */
function isUnevaluatedDefault(name, value) {
    const input = _action_yml_js__WEBPACK_IMPORTED_MODULE_0__/* .ACTION_INPUTS */ .b[name];
    return 'default' in input && input.default.includes('${{') && value.trim() === input.default;
}
/** A secret's name (in `secrets` and `secret-references`): an environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;


/***/ }),

/***/ 6377:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  P: () => (/* binding */ DEFAULT_POLL_INTERVAL_MS),
  mc: () => (/* binding */ INPUTS)
});

// UNUSED EXPORTS: DEFAULT_POLL_INTERVAL, MAX_TIMEOUT_MS, MIN_POLL_INTERVAL_MS

// EXTERNAL MODULE: ./src/control-plane/vocabulary.ts
var vocabulary = __nccwpck_require__(8072);
// EXTERNAL MODULE: ./src/control-plane/dialect.ts
var dialect = __nccwpck_require__(1076);
// EXTERNAL MODULE: ./src/duration.ts
var duration = __nccwpck_require__(7607);
// EXTERNAL MODULE: ./src/inputs/documents.ts
var documents = __nccwpck_require__(5847);
// EXTERNAL MODULE: ./src/inputs/action-yml.ts
var action_yml = __nccwpck_require__(1068);
// EXTERNAL MODULE: ./src/control-plane/base-url.ts
var base_url = __nccwpck_require__(1937);
;// CONCATENATED MODULE: ./src/inputs/fields.ts
// Field checks of single-line inputs. Each returns the parsed value and reports every problem
// through `fail` (see problems.ts). A check sees action.yml's default when the input is not set,
// so `''` reaches only the checks of inputs without one.




const DEFAULT_BASE_URL = action_yml/* ACTION_INPUTS */.b['base-url'].default;
const MAX_NAME_LENGTH = 63;
const MAX_API_KEY_LENGTH = 1024;
/** GitHub limits an environment name to 255 characters. */
const MAX_ENVIRONMENT_LENGTH = 255;
const CONTROL = /[\u0000-\u001f\u007f]/;
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const TRUE_VALUES = ['true', 'True', 'TRUE'];
const FALSE_VALUES = ['false', 'False', 'FALSE'];
function optionalText(input, what) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        if (CONTROL.test(v))
            return fail(`\`${input}\` must be ${what} on one line`);
        return v;
    };
}
function optionalToken(input, what) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        if (WHITESPACE_OR_CONTROL.test(v)) {
            return fail(`\`${input}\` must be ${what}, without spaces or line breaks`);
        }
        return v;
    };
}
function optionalUuid(input, what) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        if (!vocabulary/* UUID_PATTERN */.JJ.test(v)) {
            return fail(`\`${input}\` must be ${what}: a uuid like 123e4567-e89b-12d3-a456-426614174000`);
        }
        return v.toLowerCase();
    };
}
function booleanInput(input) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        if (TRUE_VALUES.includes(v))
            return true;
        if (FALSE_VALUES.includes(v))
            return false;
        return fail(`\`${input}\` must be \`true\` or \`false\``);
    };
}
/** A whole number from `min` to `max`. */
function integerInput(input, min, max) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        const n = /^\d+$/.test(v) ? Number(v) : NaN;
        if (Number.isInteger(n) && n >= min && n <= max)
            return n;
        return fail(`\`${input}\` must be a whole number from ${min} to ${max}`);
    };
}
/** A duration in ms; `undefined` when the input is empty. */
function durationInput(input, check) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        const ms = (0,duration/* parseDuration */.E)(v);
        if (ms === undefined) {
            return fail(`\`${input}\` must be a duration like \`90s\`, \`15m\`, \`1h\`, \`1h30m\` or plain seconds (\`600\`)`);
        }
        const problem = check(ms);
        return problem === undefined ? ms : fail(`\`${input}\` ${problem}`);
    };
}
function parseBaseUrl(v, fail) {
    const input = 'base-url';
    if (WHITESPACE_OR_CONTROL.test(v)) {
        return fail(`\`${input}\` must be a URL without spaces or line breaks`);
    }
    let url;
    try {
        url = new URL(v);
    }
    catch {
        return fail(`\`${input}\` must be an absolute URL like ${DEFAULT_BASE_URL}`);
    }
    const problem = (message) => fail(`\`${input}\` ${message}`);
    // The client's own rule for where the key may go: https, or http to a loopback host only.
    const refused = (0,base_url/* baseUrlProblem */.a)(url.href);
    if (refused)
        problem(`is refused: ${refused}`);
    if (url.search !== '' || url.hash !== '' || /[?#]/.test(v)) {
        problem('must not have a query (?...) or fragment (#...); a path is fine (https://host/api-host)');
    }
    // After a problem above, the input counts as failed whatever is returned.
    return url.origin + url.pathname.replace(/\/+$/, '');
}
/**
 * An http(s) URL that people will open (`custom-url`, `environment-url`): absolute, on one line,
 * without credentials, which would be shown to everyone who can read the deployment or the run.
 */
function webUrl(input) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        if (WHITESPACE_OR_CONTROL.test(v)) {
            return fail(`\`${input}\` must be a URL without spaces or line breaks`);
        }
        let url;
        try {
            url = new URL(v);
        }
        catch {
            return fail(`\`${input}\` must be an absolute URL like https://agent.example.com`);
        }
        if (url.protocol !== 'https:' && url.protocol !== 'http:') {
            return fail(`\`${input}\` must be an http:// or https:// URL`);
        }
        if (url.username !== '' || url.password !== '') {
            return fail(`\`${input}\` must not carry credentials (user:password@): it is shown to everyone who can read the deployment and the run`);
        }
        return v;
    };
}
const parseCustomUrl = webUrl('custom-url');
function parseName(v, fail) {
    const input = 'name';
    if (v === '')
        return undefined;
    if (!vocabulary/* DEPLOYMENT_NAME_PATTERN */.T1.test(v)) {
        fail(`\`${input}\` must be lowercase letters, digits and hyphens, starting with a letter (like \`my-agent\`)`);
    }
    if (v.length > MAX_NAME_LENGTH) {
        fail(`\`${input}\` must be at most ${MAX_NAME_LENGTH} characters (it has ${v.length})`);
    }
    return v;
}
function parseApiKey(v, fail) {
    const input = 'api-key';
    if (v === '') {
        return fail(`\`${input}\` is required: pass the control plane API key from a secret`);
    }
    if (v.length > MAX_API_KEY_LENGTH) {
        return fail(`\`${input}\` is too long: at most ${MAX_API_KEY_LENGTH} characters`);
    }
    if (!/^[\x21-\x7e]+$/.test(v)) {
        return fail(`\`${input}\` must be one line of printable ASCII without spaces or control characters (it is sent as an HTTP header)`);
    }
    return v;
}
function parseGithubToken(v, fail) {
    const input = 'github-token';
    if (v === '')
        return undefined;
    if (v.length > MAX_API_KEY_LENGTH) {
        return fail(`\`${input}\` is too long: at most ${MAX_API_KEY_LENGTH} characters`);
    }
    if (!/^[\x21-\x7e]+$/.test(v)) {
        return fail(`\`${input}\` must be one line of printable ASCII without spaces (pass \`\${{ github.token }}\` or a token from a secret)`);
    }
    return v;
}
function parseEnvironment(v, fail) {
    const input = 'environment';
    if (v === '')
        return undefined;
    if (CONTROL.test(v))
        return fail(`\`${input}\` must be a GitHub environment name on one line`);
    if (v.length > MAX_ENVIRONMENT_LENGTH) {
        return fail(`\`${input}\` must be at most ${MAX_ENVIRONMENT_LENGTH} characters`);
    }
    return v;
}
const parseEnvironmentUrl = webUrl('environment-url');
const BRANCH_PREFIX = 'refs/heads/';
/**
 * What `git check-ref-format --allow-onelevel` refuses in `ref`, as one reason; undefined for a
 * well-formed name. The integration checks out what it is given: a malformed name fails late.
 */
function refFormatProblem(ref) {
    if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref)) {
        return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\';
    }
    if (ref.includes('..'))
        return 'must not contain `..`';
    if (ref.includes('@{'))
        return 'must not contain `@{`';
    if (ref === '@')
        return 'must not be `@` alone';
    if (ref.startsWith('/') || ref.endsWith('/') || ref.includes('//')) {
        return 'must not start or end with `/` nor contain `//`';
    }
    if (ref.endsWith('.'))
        return 'must not end with `.`';
    for (const part of ref.split('/')) {
        if (part.startsWith('.'))
            return 'must not have a part (between slashes) that starts with `.`';
        if (part.endsWith('.lock'))
            return 'must not have a part (between slashes) that ends with `.lock`';
    }
    return undefined;
}
/** A branch name or `refs/tags/<tag>`, as git allows ref names; `refs/heads/X` is `X`. */
function parseRef(v, fail) {
    if (v === '')
        return undefined;
    const problem = refFormatProblem(v);
    if (problem !== undefined) {
        return fail(`\`ref\` must be a branch name or \`refs/tags/<tag>\` as git allows it: it ${problem}`);
    }
    // `repo_ref` takes a branch name or a full tag ref (see parseInputs' notice for refs/heads/).
    if (v.startsWith(BRANCH_PREFIX) && v.length > BRANCH_PREFIX.length) {
        return v.slice(BRANCH_PREFIX.length);
    }
    return v;
}
function parseGraphConfigPath(v, fail) {
    const input = 'graph-config-path';
    if (v === '')
        return undefined;
    if (CONTROL.test(v))
        return fail(`\`${input}\` must be a path on one line`);
    if (v.startsWith('/')) {
        return fail(`\`${input}\` must be relative to the repository root (like \`langgraph.json\`)`);
    }
    return v;
}
function parseRepository(v, fail) {
    if (v === '')
        return undefined;
    const [, name] = v.split('/');
    if (!REPOSITORY.test(v) || name === '.' || name === '..') {
        return fail('`repository` must be `owner/name` (like `my-org/my-agent`)');
    }
    return v;
}
function parseNamespace(v, fail) {
    const input = 'k8s-namespace';
    if (v === '')
        return undefined;
    if (!DNS_LABEL.test(v) || v.length > 63) {
        return fail(`\`${input}\` must be a Kubernetes namespace name: at most 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit`);
    }
    return v;
}
function parseEnum(input, values) {
    return (v, fail) => {
        if (v === '')
            return undefined;
        if (values.includes(v))
            return v;
        return fail(`\`${input}\` must be one of ${values.map(s => `\`${s}\``).join(', ')}`);
    };
}

// EXTERNAL MODULE: ./src/inputs/health.ts
var health = __nccwpck_require__(6543);
// EXTERNAL MODULE: ./src/inputs/names.ts
var names = __nccwpck_require__(5585);
// EXTERNAL MODULE: ./src/inputs/text.ts
var inputs_text = __nccwpck_require__(4862);
;// CONCATENATED MODULE: ./src/inputs/secrets.ts



const FORMS = 'a JSON object {"NAME": "value"} or NAME=VALUE lines';
// Never the parser's reason: it may quote the text, and the text holds secret values.
const OBJECT_MESSAGES = {
    notParsed: where => `\`secrets\` starts with \`{\` but is not valid JSON${where}: use ${FORMS}`,
    // A key that is no name may be a value pasted by mistake: do not repeat it.
    duplicateKey: (key, where) => `\`secrets\`: ${names/* ENV_NAME */.G1.test(key) ? key : 'a name'} is set more than once (${where})`
};
function checkSecretName(name, where, fail) {
    if (!names/* ENV_NAME */.G1.test(name)) {
        // The text in the name position may be a value pasted by mistake: do not repeat it.
        fail(`\`secrets\` ${where}: the name must look like an environment variable name (letters, digits and underscores, not starting with a digit)`);
        return false;
    }
    return true;
}
/**
 * Secrets as `NAME=VALUE` lines (values trimmed) or a JSON object of strings (values exact; the
 * YAML flow form `{NAME: 'value'}` reads the same); `undefined` when empty.
 */
function parseSecrets(v, fail) {
    if (v === '')
        return undefined;
    const secrets = [];
    const add = (name, value, where) => {
        if (!checkSecretName(name, where, fail))
            return;
        if (value === '') {
            // On a `NAME=` line the "name" may be a pasted value with base64 padding: name the line.
            const which = where.startsWith('line') ? where : name;
            fail(`\`secrets\` ${which}: the value is empty (is the workflow secret that should fill it defined?)`);
            return;
        }
        secrets.push({ name, value });
    };
    if (v.startsWith('{')) {
        const parsed = (0,documents/* parseDocumentInput */.Zr)('secrets', v, fail, OBJECT_MESSAGES);
        if (parsed === undefined)
            return undefined;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            return fail(`\`secrets\` must be ${FORMS}`);
        }
        for (const [name, value] of Object.entries(parsed)) {
            if (typeof value !== 'string') {
                if (checkSecretName(name, 'in the JSON object', fail)) {
                    fail(`\`secrets\`: the value of ${name} must be a string`);
                }
                continue;
            }
            add(name, value, 'in the JSON object');
        }
    }
    else {
        const seen = new Set();
        (0,inputs_text/* lines */.M)(v).forEach((line, index) => {
            const t = line.trim();
            if (t === '' || t.startsWith('#'))
                return;
            const where = `line ${index + 1}`;
            const eq = line.indexOf('=');
            if (eq < 0) {
                fail(`\`secrets\` ${where} is not NAME=VALUE (or the whole input a JSON object)`);
                return;
            }
            const name = line.slice(0, eq).trim();
            if (seen.has(name)) {
                fail(`\`secrets\`: ${name} is set more than once (${where})`);
                return;
            }
            seen.add(name);
            // Trimmed: the runner trims the input's ends, so only trimming every value is consistent
            // (and a trailing space from YAML block text is never meant). JSON keeps values exact.
            add(name, line.slice(eq + 1).trim(), where);
        });
    }
    // After any problem above the input counts as failed, whatever is returned (see problems.ts).
    return secrets;
}

;// CONCATENATED MODULE: ./src/inputs/table.ts
// The inputs table: per input of action.yml, how it is parsed (its check, see problems.ts) and
// which commands it applies to. action.yml (through the generated action-yml.ts) gives the names,
// defaults and descriptions; everything else about an input is its row here. The list of names,
// what only a deploy uses and the keys of `Options` are derived from the two, and a row missing
// or left over is a type error. Adding an input: action.yml, `npm run readme`, one row, its use.







const DEFAULT_POLL_INTERVAL = '15s';
const DEFAULT_POLL_INTERVAL_MS = 15_000;
const MAX_TIMEOUT_MS = 6 * 60 * 60 * 1000;
const MIN_POLL_INTERVAL_MS = 1000;
const row = (check, applies) => ({ check, applies });
/** Each input's row. A check sees action.yml's default when the input is not set. */
const INPUTS = {
    'api-key': row(parseApiKey, 'both'),
    'tenant-id': row(optionalUuid('tenant-id', 'a workspace id'), 'both'),
    'base-url': row(parseBaseUrl, 'both'),
    name: row(parseName, 'both'),
    'deployment-id': row(optionalUuid('deployment-id', 'a deployment id'), 'both'),
    // `github` is the production service's word for `codehost`: both are accepted.
    source: row((v, fail) => (v === 'github' ? 'codehost' : parseSource(v, fail)), 'deploy'),
    'integration-id': row(optionalUuid('integration-id', 'a forge integration id'), 'deploy'),
    repository: row(parseRepository, 'deploy'),
    ref: row(parseRef, 'deploy'),
    'graph-config-path': row(parseGraphConfigPath, 'deploy'),
    'image-uri': row(optionalToken('image-uri', 'an image reference like registry.example.com/agent@sha256:...'), 'deploy'),
    secrets: row(parseSecrets, 'deploy'),
    'secret-references': row(documents/* parseSecretReferences */.qv, 'deploy'),
    'resource-spec': row(documents/* parseResourceSpec */.Bj, 'deploy'),
    'build-on-push': row(booleanInput('build-on-push'), 'deploy'),
    'custom-url': row(parseCustomUrl, 'deploy'),
    'listener-id': row(optionalUuid('listener-id', 'a listener id'), 'deploy'),
    'k8s-namespace': row(parseNamespace, 'deploy'),
    'install-command': row(optionalText('install-command', 'a command'), 'deploy'),
    'build-command': row(optionalText('build-command', 'a command'), 'deploy'),
    'revision-source': row(parseEnum('revision-source', vocabulary/* REVISION_SOURCES */.Jy), 'deploy'),
    create: row(booleanInput('create'), 'deploy'),
    wait: row(booleanInput('wait'), 'both'),
    timeout: row(durationInput('timeout', ms => ms <= 0
        ? 'must be longer than zero'
        : ms > MAX_TIMEOUT_MS
            ? `must be at most ${(0,duration/* formatDuration */.a)(MAX_TIMEOUT_MS)} (the longest a job step should wait)`
            : undefined), 'both'),
    // Not set: the default follows the timeout (a pause is never longer than the whole wait).
    'poll-interval': row(durationInput('poll-interval', ms => ms < MIN_POLL_INTERVAL_MS ? 'must be at least 1s' : undefined), 'both'),
    'dry-run': row(booleanInput('dry-run'), 'both'),
    'github-token': row(parseGithubToken, 'both'),
    environment: row(parseEnvironment, 'deploy'),
    'environment-url': row(parseEnvironmentUrl, 'deploy'),
    'api-dialect': row(parseEnum('api-dialect', ['auto', ...dialect/* DIALECTS */.O9]), 'both'),
    'deployment-type': row(parseEnum('deployment-type', vocabulary/* DEPLOYMENT_TYPES */._o), 'deploy'),
    command: row(parseEnum('command', ['deploy', 'delete']), 'both'),
    'delete-tracing-project': row(booleanInput('delete-tracing-project'), 'delete'),
    'on-failure': row(parseEnum('on-failure', ['fail', 'rollback']), 'deploy'),
    'failure-logs': row(integerInput('failure-logs', 0, 1000), 'deploy'),
    'pr-comment': row(booleanInput('pr-comment'), 'both'),
    'health-check': row(health/* parseHealthCheck */.Kx, 'deploy'),
    'health-check-window': row(health/* parseHealthCheckWindow */.E_, 'deploy')
};
function parseSource(v, fail) {
    if (vocabulary/* SOURCES */.Hl.includes(v))
        return v;
    return fail(`\`source\` must be one of ${[...vocabulary/* SOURCES */.Hl, 'github'].map(s => `\`${s}\``).join(', ')} (\`github\` is another word for \`codehost\`)`);
}


/***/ }),

/***/ 4862:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ lines),
/* harmony export */   r: () => (/* binding */ lineColumn)
/* harmony export */ });
// Line helpers shared by the checks of multi-line inputs.
const lines = (text) => text.split(/\r\n|\n|\r/);
/** `line L, column C` of a character offset. */
function lineColumn(text, offset) {
    const before = text.slice(0, offset);
    const line = lines(before).length;
    const column = offset - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
    return `line ${line}, column ${column}`;
}


/***/ }),

/***/ 4262:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  e: () => (/* binding */ run)
});

// EXTERNAL MODULE: ./src/control-plane/dialect.ts
var dialect = __nccwpck_require__(1076);
// EXTERNAL MODULE: ./src/control-plane/redact.ts
var control_plane_redact = __nccwpck_require__(7889);
;// CONCATENATED MODULE: ./src/control-plane/errors.ts
// Errors are values with a message written for the person reading the job log: what failed, the
// HTTP status, and what to check. Every text that came from the server is sanitised first.


/** Base of every error the client raises. */
class ControlPlaneError extends Error {
    method;
    path;
    operation;
    constructor(ctx, message, options) {
        super(message, options);
        this.name = new.target.name;
        this.method = ctx.method;
        this.path = ctx.path;
        this.operation = ctx.operation;
    }
}
/** The service answered with an error status. */
class ApiError extends ControlPlaneError {
    status;
    /** The server's `detail`, sanitised; for a 422, one line per entry. */
    detail;
    validation;
    hint;
    /**
     * The server's Retry-After (capped as the transport caps it) when it sent one that the
     * transport did not wait out (it ended past the deadline, or the attempts ran out): a caller
     * that tries again later does not do so before this has passed.
     */
    retryAfterMs;
    /**
     * An earlier attempt of this request went out and got no trustworthy answer (a lost connection,
     * a timeout, a 5xx) before this answer came: a 404 to a retried DELETE then means that the
     * earlier attempt may have done the work.
     */
    afterUnknownOutcome = false;
    constructor(ctx, status, detail, validation) {
        const hint = hintFor(ctx, status, detail);
        const head = `${ctx.operation} failed: HTTP ${status} on ${ctx.method} ${ctx.path}`;
        const body = detail ? (detail.includes('\n') ? `\n${detail}` : `: ${detail}`) : '';
        super(ctx, `${head}${body}${hint ? `\n${hint}` : ''}`);
        this.status = status;
        this.detail = detail;
        this.validation = validation;
        this.hint = hint;
        this.retryAfterMs = undefined;
    }
}
/** The service answered 2xx but with a body that is not JSON or does not fit the interface. */
class UnexpectedResponseError extends ControlPlaneError {
    status;
    /** What is wrong with the body, without the request. */
    problem;
    constructor(ctx, status, problem) {
        super(ctx, `unexpected response from the control plane (HTTP ${status} on ${ctx.method} ${ctx.path}): ${problem}`);
        this.status = status;
        this.problem = problem;
    }
}
/**
 * A well-formed answer about another resource than the one asked for (another deployment's or
 * revision's id). A read is asked again; after a write it is never taken as the write's outcome.
 */
class OtherResourceError extends UnexpectedResponseError {
}
/** A 3xx: never followed, so the API key never reaches another host. */
class RedirectRefusedError extends ControlPlaneError {
    status;
    targetOrigin;
    /** Origin and path of the Location (no query string, no credentials): what base-url should be. */
    target;
    constructor(ctx, status, target) {
        const where = target.origin + target.path;
        super(ctx, `${ctx.operation} refused a redirect: HTTP ${status} on ${ctx.method} ${ctx.path} points to ${where}. ` +
            'Redirects are not followed so that the API key is sent only to base-url; set base-url to the final address.');
        this.status = status;
        this.targetOrigin = target.origin;
        this.target = where;
    }
}
/** No answer: connection refused or reset, a timeout, a body over the size cap, the deadline. */
class NetworkError extends ControlPlaneError {
    reason;
    attempts;
    constructor(ctx, reason, attempts, options) {
        const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
        super(ctx, `${ctx.operation} failed${tries}: ${reason} (${ctx.method} ${ctx.path})`, options);
        this.reason = reason;
        this.attempts = attempts;
    }
}
/**
 * A write (POST, PATCH) that may or may not have been applied: the request went out and no
 * trustworthy answer came back. The caller reconciles by reading state, never by blind retry.
 */
class OutcomeUnknownError extends ControlPlaneError {
    reason;
    /**
     * No answer came in the time the request was given: the server may still be working on it, and
     * the change may land after this error. (A reset or an error status is an end: what was applied
     * is applied by then.)
     */
    pending;
    constructor(ctx, reason, options) {
        super(ctx, `${ctx.operation}: outcome unknown (${reason}) on ${ctx.method} ${ctx.path}; the change may or may not have been applied`, options);
        this.reason = reason;
        this.pending = options?.pending ?? false;
    }
}
/** The run was cancelled or its overall deadline passed while a request was pending. */
class AbortedError extends ControlPlaneError {
}
/**
 * A list whose pages never end: full page after full page past a bound no real workspace reaches,
 * or a page of entries already read (the offset did not advance). Raised before the caller acts
 * on a list it could not read to the end.
 */
class EndlessListError extends ControlPlaneError {
    pages;
    pageSize;
    constructor(ctx, what, pages, pageSize, why) {
        super(ctx, `The ${what} list did not end: ${pages} pages of ${pageSize} read without a short page (${why}); ` +
            "the control plane's paging looks broken.");
        this.pages = pages;
        this.pageSize = pageSize;
    }
}
/** `source_config.repo_url: Field required`: the location without its `body`/`query`/`path` root. */
function renderValidationEntry(entry) {
    const loc = [...entry.loc];
    if (loc.length > 1 && (loc[0] === 'body' || loc[0] === 'query' || loc[0] === 'path'))
        loc.shift();
    const where = loc.map(p => (0,control_plane_redact/* sanitizeServerText */.c8)(String(p), 80)).join('.');
    const msg = (0,control_plane_redact/* sanitizeServerText */.c8)(entry.msg, 300);
    return where ? `${where}: ${msg}` : msg;
}
function renderValidationErrors(entries) {
    const shown = entries.slice(0, 20).map(renderValidationEntry);
    if (entries.length > shown.length)
        shown.push(`… and ${entries.length - shown.length} more`);
    return shown.join('\n');
}
function hintFor(ctx, status, detail) {
    const text = detail.toLowerCase();
    switch (status) {
        case 400:
            return text.includes('already exists')
                ? 'Hint: the name is taken (names stay taken after a delete, with their tracing project); choose another name or pass deployment-id.'
                : 'Hint: the control plane rejected the request; check the inputs named above.';
        case 401:
            return 'Hint: check the api-key input: the control plane did not accept the key (expired, revoked, or for another region: see base-url).';
        case 403:
            if (text.includes('requires workspace specification'))
                return 'Hint: this organization-scoped key needs a workspace: set the tenant-id input to the workspace id.';
            if (text.includes('not enabled'))
                return 'Hint: deployments are not enabled for this organization; ask its admin to enable them.';
            if (ctx.path.includes('/listeners/'))
                return 'Hint: listeners are only allowed for organizations on self-hosted enterprise plans.';
            return "Hint: check tenant-id and that the key's workspace may manage deployments.";
        case 404:
            return `Hint: ${notFoundSubject(ctx.path)} was not found with this key and tenant-id; check the id, tenant-id and base-url.${dialectHint(ctx.path)}`;
        case 409:
            return 'Hint: a deployment with this name already exists.';
        case 422:
            return 'Hint: the control plane rejected the request body or parameters; the lines above name each field.';
        case 429:
            return 'Hint: the control plane is rate limiting this key; fewer parallel jobs or a longer poll-interval help.';
        default:
            return status >= 500
                ? 'Hint: the control plane failed on its side; re-run the job later. If a deployment was being created or updated, the re-run converges on it.'
                : undefined;
    }
}
/** A 404 on a path the two wire dialects name differently may mean the other dialect. */
function dialectHint(path) {
    const spoken = (0,dialect/* dialectOfPath */.L8)(path);
    if (spoken === undefined)
        return '';
    const other = spoken === 'interface' ? 'langsmith' : 'interface';
    return ` If this control plane speaks the \`${other}\` names, set \`api-dialect: ${other}\`.`;
}
function notFoundSubject(path) {
    const parts = path.split('/').filter(Boolean);
    const after = (word) => {
        const i = parts.lastIndexOf(word);
        return i >= 0 ? parts[i + 1] : undefined;
    };
    if (parts.includes('revisions'))
        return `revision ${after('revisions')} of deployment ${after('deployments') ?? after('projects')}`;
    if (parts.includes('deployments') && after('deployments'))
        return `deployment ${after('deployments')}`;
    if (parts.includes('listeners'))
        return `listener ${after('listeners')}`;
    for (const forge of ['codehost', 'github'])
        if (parts.includes(forge))
            return `forge integration ${after(forge)} (integration-id)`;
    return 'the resource';
}

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __nccwpck_require__(7067);
;// CONCATENATED MODULE: external "node:https"
const external_node_https_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/proxy.js
var proxy = __nccwpck_require__(9783);
;// CONCATENATED MODULE: ./src/control-plane/load-schema.ts
let loading;
/** The model, imported once per process. */
function loadSchema() {
    return (loading ??= Promise.all(/* import() */[__nccwpck_require__.e(567), __nccwpck_require__.e(993)]).then(__nccwpck_require__.bind(__nccwpck_require__, 1993)));
}

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __nccwpck_require__(8500);
;// CONCATENATED MODULE: ./src/sleep.ts
// The one real-time pause of the action, shared by the transport and the deploy layer (which
// therefore need not import each other for it); tests inject their own.

/** Resolves after `ms`; rejects (an AbortError) as soon as `signal` aborts, or at once if it has. */
function sleep_sleep(ms, signal) {
    return (0,promises_.setTimeout)(ms, undefined, { signal });
}

;// CONCATENATED MODULE: ./src/control-plane/http-util.ts
// Small pure helpers of the transport: URLs, backoff, Retry-After.
function formatBytes(n) {
    if (n >= 1024 * 1024)
        return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
    if (n >= 1024)
        return `${+(n / 1024).toFixed(1)} KiB`;
    return `${n} bytes`;
}
function formatSeconds(ms) {
    return `${+(ms / 1000).toFixed(1)} s`;
}
function buildUrl(baseUrl, path, query) {
    const url = new URL(baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) {
        if (v !== undefined)
            url.searchParams.set(k, String(v));
    }
    return url;
}
/** Full jitter: a uniform draw below an exponentially growing cap (attempt 1 -> base). */
function backoffDelay(attempt, baseDelayMs, maxDelayMs, random = Math.random) {
    const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(random() * cap);
}
/** `Retry-After` as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
function parseRetryAfter(value, now) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v === undefined || v.trim() === '')
        return undefined;
    const text = v.trim();
    if (/^\d+$/.test(text))
        return Number(text) * 1000;
    if (/^\d+\.\d+$/.test(text))
        return Math.round(Number(text) * 1000);
    // Date.parse reads '-5' as a year: only something that looks like an HTTP date counts.
    if (!/[a-z]/i.test(text))
        return undefined;
    const date = Date.parse(text);
    if (Number.isNaN(date))
        return undefined;
    return Math.max(0, date - now);
}
/**
 * Where a redirect points, as origin and path: the query string (which may carry a token) and any
 * credentials in the Location are left out.
 */
function locationOf(location, base) {
    if (!location)
        return { origin: 'an unnamed location', path: '' };
    try {
        const url = new URL(location, base);
        return { origin: url.origin, path: url.pathname };
    }
    catch {
        return { origin: 'an unreadable location', path: '' };
    }
}

;// CONCATENATED MODULE: ./src/control-plane/http.ts
// The transport: one request at a time, with a per-request timeout, an overall deadline, retries
// with full-jitter backoff that honour Retry-After, redirects refused, and a cap on body size.
// Requests go through node:http(s). Behind a proxy (https_proxy / http_proxy, minus no_proxy and
// loopback hosts, as the runner's own tools read them) the agent is the tunnelling one of
// @actions/http-client, whose own redirect-following and retries are not used: it would send
// X-Api-Key to a redirect's host. That package is loaded only then: it imports undici at its top
// level, which would otherwise cost every run a large part of its start-up.









const DEFAULT_RETRY = {
    maxAttempts: 5,
    maxRateLimitedAttempts: 30,
    baseDelayMs: 500,
    maxDelayMs: 20_000,
    maxRetryAfterMs: 60_000
};
/** Statuses after which a request that is safe to repeat is tried again. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** Connection errors that mean the request never reached the server: safe even for writes. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
class Transport {
    #opts;
    /** Keep-alive agents of direct requests, by protocol. */
    #direct = new Map();
    /** The source of proxy agents, loaded on the first request that goes through a proxy. */
    #proxied;
    #requests = 0;
    constructor(opts) {
        this.#opts = opts;
    }
    /** Requests sent on the wire so far, retries included. */
    get requestCount() {
        return this.#requests;
    }
    /** Sends a request and returns the parsed JSON of a 2xx answer (undefined for 204). */
    async send(spec) {
        const idempotent = spec.idempotent ?? (spec.method === 'GET' || spec.method === 'DELETE');
        const { retry } = this.#opts;
        const now = this.#opts.now ?? Date.now;
        let unknownOutcome = false;
        for (let attempt = 1;; attempt++) {
            this.#checkAborted(spec);
            let res;
            try {
                res = await this.#once(spec);
            }
            catch (err) {
                if (err instanceof AbortedError || err instanceof UnexpectedResponseError)
                    throw err;
                const e = err;
                const lastReason = this.#reason(e);
                const notSent = e.code !== undefined && NOT_SENT_CODES.has(e.code);
                if (!idempotent && !notSent) {
                    const pending = e.name === 'TimeoutError' || e.code === 'ETIMEDOUT';
                    throw new OutcomeUnknownError(spec, lastReason, { cause: err, pending });
                }
                // The same oversized answer would come again: fetching it twice only wastes time.
                if (e.code === 'EBODYTOOLARGE')
                    throw new NetworkError(spec, lastReason, attempt, { cause: err });
                const delay = this.#backoff(attempt);
                if (attempt >= retry.maxAttempts || !this.#fits(delay, spec))
                    throw new NetworkError(spec, lastReason, attempt, { cause: err });
                this.#log(`${spec.method} ${spec.path}: ${lastReason}; retry ${attempt} in ${delay} ms`);
                unknownOutcome ||= !notSent;
                await this.#sleep(delay, spec);
                continue;
            }
            if (res.status >= 200 && res.status < 300)
                return { status: res.status, json: this.#json(spec, res) };
            if (res.status >= 300 && res.status < 400) {
                const target = locationOf(res.headers.location, this.#opts.baseUrl);
                const path = (0,control_plane_redact/* sanitizeServerText */.c8)(this.#opts.redactor.redact(target.path), 200);
                throw new RedirectRefusedError(spec, res.status, { origin: target.origin, path });
            }
            // A 429 is refused before anything is applied, so even a write may be sent again.
            const retryable = RETRYABLE_STATUS.has(res.status) && (idempotent || res.status === 429);
            const error = await this.#apiError(spec, res);
            error.afterUnknownOutcome = unknownOutcome;
            if (!retryable) {
                if (!idempotent && res.status >= 500)
                    throw new OutcomeUnknownError(spec, `HTTP ${res.status}`, { cause: error });
                throw error;
            }
            const retryAfter = parseRetryAfter(res.headers['retry-after'], now());
            // Retry-After is a floor. Parallel jobs on one key are all told the same and would come back
            // in the same instant, to be refused together again: a jittered backoff on top, growing with
            // each refusal, spreads the herd out.
            const delay = retryAfter !== undefined
                ? Math.min(retryAfter, retry.maxRetryAfterMs) + this.#backoff(attempt)
                : this.#backoff(attempt);
            const attempts = res.status === 429 ? retry.maxRateLimitedAttempts : retry.maxAttempts;
            if (attempt >= attempts || !this.#fits(delay, spec)) {
                if (retryAfter !== undefined)
                    error.retryAfterMs = Math.min(retryAfter, retry.maxRetryAfterMs);
                throw error;
            }
            this.#log(`${spec.method} ${spec.path}: HTTP ${res.status}; retry ${attempt} in ${delay} ms` +
                (retryAfter !== undefined ? ' (Retry-After)' : ''));
            if (res.status === 429)
                this.#opts.onRateLimited?.(delay);
            // A 429 is refused before anything is done; any other retried status may have done it.
            else
                unknownOutcome = true;
            await this.#sleep(delay, spec);
        }
    }
    /**
     * A pause before the caller tries something again (a write it reconciled, a read whose answer
     * did not fit): `ms`, or the backoff of `attempt`. Resolves false at once when the pause would
     * end past the transport's deadline, and false when cancelled meanwhile.
     */
    async pause(attempt, ms) {
        const delay = ms ?? this.#backoff(attempt);
        const deadline = this.#opts.deadline;
        const now = (this.#opts.now ?? Date.now)();
        if (this.#opts.signal?.aborted || (deadline !== undefined && now + delay >= deadline))
            return false;
        try {
            await (this.#opts.sleep ?? sleep_sleep)(delay, this.#opts.signal);
        }
        catch {
            return false;
        }
        return !this.#opts.signal?.aborted;
    }
    close() {
        for (const agent of this.#direct.values())
            agent.destroy();
        void this.#proxied?.then(source => source.dispose(), () => undefined);
    }
    /**
     * The agent for `url`: through the proxy the environment names for it, if any, else a direct
     * keep-alive agent (as many sockets as Node's global agent allows, as @actions/http-client has).
     */
    #agent(url) {
        if ((0,proxy/* getProxyUrl */.s)(url)?.hostname) {
            this.#proxied ??= Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(779)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2779)).then(({ HttpClient }) => new HttpClient(undefined, [], {
                allowRedirects: false,
                allowRetries: false,
                keepAlive: true
            }));
            return this.#proxied.then(source => source.getAgent(url.href));
        }
        let agent = this.#direct.get(url.protocol);
        if (!agent) {
            const options = { keepAlive: true, maxSockets: external_node_http_.globalAgent.maxSockets };
            agent = url.protocol === 'https:' ? new external_node_https_namespaceObject.Agent(options) : new external_node_http_.Agent(options);
            this.#direct.set(url.protocol, agent);
        }
        return agent;
    }
    #backoff(attempt) {
        const { baseDelayMs, maxDelayMs } = this.#opts.retry;
        return backoffDelay(attempt, baseDelayMs, maxDelayMs, this.#opts.random ?? Math.random);
    }
    #deadline(spec) {
        const a = this.#opts.deadline;
        const b = spec.deadline;
        return a === undefined ? b : b === undefined ? a : Math.min(a, b);
    }
    /** Whether waiting `delay` ms still leaves time for another attempt before the deadline. */
    #fits(delay, spec) {
        const deadline = this.#deadline(spec);
        const now = (this.#opts.now ?? Date.now)();
        return deadline === undefined || now + delay < deadline;
    }
    async #sleep(ms, spec) {
        const sleep = this.#opts.sleep ?? sleep_sleep;
        try {
            await sleep(ms, this.#opts.signal);
        }
        catch {
            this.#checkAborted(spec);
        }
    }
    #checkAborted(spec) {
        if (this.#opts.signal?.aborted)
            throw new AbortedError(spec, `${spec.operation} cancelled`);
        const deadline = this.#deadline(spec);
        if (deadline !== undefined && (this.#opts.now ?? Date.now)() >= deadline)
            throw new AbortedError(spec, `${spec.operation} not sent: the deadline has passed`);
    }
    #reason(e) {
        if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT') {
            const within = formatSeconds(e.budgetMs ?? this.#opts.requestTimeoutMs);
            return `no complete answer within ${within}${e.byDeadline ? ' (the deadline of the run)' : ''}`;
        }
        if (e.code === 'EBODYTOOLARGE')
            return e.message;
        return (0,control_plane_redact/* sanitizeServerText */.c8)(this.#opts.redactor.redact(e.code ? `${e.code}` : e.message), 200);
    }
    #json(spec, res) {
        if (res.status === 204 || res.text === '')
            return undefined;
        try {
            return JSON.parse(res.text);
        }
        catch {
            // Redact before cutting: a cut through a secret would hide it from the redactor.
            const start = (0,control_plane_redact/* sanitizeServerText */.c8)(this.#opts.redactor.redact(res.text), 80);
            throw new UnexpectedResponseError(spec, res.status, `the body is not JSON (starts with "${start}")`);
        }
    }
    async #apiError(spec, res) {
        const { ErrorDetail, HTTPValidationError } = await loadSchema();
        const redact = (s) => this.#opts.redactor.redact(s);
        let parsed;
        try {
            parsed = JSON.parse(res.text);
        }
        catch {
            parsed = undefined;
        }
        const validation = HTTPValidationError.safeParse(parsed);
        if (validation.success) {
            // `input` echoes what was sent (secret values among it): it is never shown.
            const entries = validation.data.detail.map(({ loc, msg, type }) => ({
                loc: loc.map(p => (typeof p === 'string' ? redact(p) : p)),
                msg: redact(msg),
                type
            }));
            return new ApiError(spec, res.status, renderValidationErrors(entries), entries);
        }
        const detail = ErrorDetail.safeParse(parsed);
        const text = detail.success ? detail.data.detail : res.text;
        return new ApiError(spec, res.status, (0,control_plane_redact/* sanitizeServerText */.c8)(redact(text)));
    }
    #log(line) {
        // A request body may carry `##[` (the runner reads those commands anywhere in a line).
        this.#opts.debug?.(this.#opts.redactor.redact(line).replace(/#(?=#\[)/g, '# '));
    }
    async #once(spec) {
        const { baseUrl, headers, requestTimeoutMs, maxBodyBytes, signal } = this.#opts;
        const deadline = this.#deadline(spec);
        const url = buildUrl(baseUrl, spec.path, spec.query);
        const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
        const now = (this.#opts.now ?? Date.now)();
        const budget = deadline === undefined ? requestTimeoutMs : Math.min(requestTimeoutMs, deadline - now);
        const signals = [AbortSignal.timeout(Math.max(1, budget))];
        if (signal)
            signals.push(signal);
        const combined = AbortSignal.any(signals);
        const lib = url.protocol === 'https:' ? external_node_https_namespaceObject : external_node_http_;
        const agentOf = this.#agent(url);
        const agent = agentOf instanceof Promise ? await agentOf : agentOf;
        this.#requests++;
        this.#log(`→ ${spec.method} ${url.pathname}${url.search}${body ? ` ${body}` : ''}`);
        return new Promise((resolve, reject) => {
            const req = lib.request(url, {
                method: spec.method,
                headers: body ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } : headers,
                agent,
                signal: combined
            });
            const fail = (err) => {
                if (signal?.aborted)
                    reject(new AbortedError(spec, `${spec.operation} cancelled`));
                else if (combined.aborted)
                    reject(Object.assign(new Error('timeout'), {
                        name: 'TimeoutError',
                        budgetMs: budget,
                        byDeadline: budget < requestTimeoutMs
                    }));
                else
                    reject(err);
            };
            req.on('error', fail);
            req.on('response', res => {
                const chunks = [];
                let size = 0;
                res.on('data', (chunk) => {
                    size += chunk.length;
                    if (size > maxBodyBytes) {
                        const err = Object.assign(new Error(`the answer is larger than ${formatBytes(maxBodyBytes)} and was cut off`), { code: 'EBODYTOOLARGE' });
                        // Rejected first: destroying emits 'aborted', whose message would win otherwise.
                        reject(err);
                        res.destroy();
                        req.destroy();
                        return;
                    }
                    chunks.push(chunk);
                });
                res.on('error', fail);
                res.on('aborted', () => fail(new Error('the connection closed before the answer was complete')));
                res.on('end', () => {
                    const text = Buffer.concat(chunks).toString('utf8');
                    this.#log(`← ${res.statusCode} ${spec.method} ${url.pathname} (${size} bytes)`);
                    resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
                });
            });
            req.end(body);
        });
    }
}

;// CONCATENATED MODULE: ./src/control-plane/client-options.ts
/** One log line's message is cut to this many characters (after redaction). */
const MAX_LOG_MESSAGE_CHARS = 4000;

// EXTERNAL MODULE: ./src/control-plane/base-url.ts
var base_url = __nccwpck_require__(1937);
;// CONCATENATED MODULE: ./src/control-plane/paging.ts
// Reading a limit/offset list to its end, with a bound. The service gives no total: a page shorter
// than the limit is the last one. A service whose paging is broken (full pages for ever, or the
// same page again and again) must end in a clear error, not in thousands of requests until the
// deadline: the deploy flow reads the list before it writes anything.

/**
 * Pages read at most: 200 pages of 100 are 20,000 entries, far more than a workspace holds (each
 * deployment has its own database and tracing project; real workspaces have hundreds), and at
 * about 0.1 s a page the bound is reached in seconds, well within any run's timeout.
 */
const MAX_PAGES = 200;
/**
 * Every entry of a paged list, in order, each once. `read(offset)` fetches the page at `offset`;
 * `what` names the list in the error ("deployment", "revision").
 */
async function* readAllPages(read, pageSize, ctx, what) {
    const seen = new Set();
    let offset = 0;
    for (let pages = 1;; pages++) {
        const page = await read(offset);
        // An entry may move to the next page while we read (a deployment created meanwhile): it is
        // given once. A full page of entries already given means the offset did not advance.
        const fresh = page.resources.filter(r => !seen.has(r.id));
        if (page.resources.length >= pageSize && fresh.length === 0) {
            throw new EndlessListError(ctx, what, pages, pageSize, `page ${pages} held only ${what}s already read: the offset did not advance`);
        }
        for (const r of fresh)
            seen.add(r.id);
        yield* fresh;
        if (page.resources.length < pageSize)
            return;
        if (pages >= MAX_PAGES) {
            throw new EndlessListError(ctx, what, pages, pageSize, `more than ${(MAX_PAGES * pageSize).toLocaleString('en-US')} ${what}s, the most this action reads`);
        }
        // A service that echoes the requested offset would loop for ever: step past the page.
        offset = page.offset > offset ? page.offset : offset + page.resources.length;
    }
}

// EXTERNAL MODULE: ./src/version.ts + 1 modules
var version = __nccwpck_require__(1013);
;// CONCATENATED MODULE: ./src/control-plane/client.ts










/** Reads of one GET whose answer does not fit, the first included. */
const READ_ATTEMPTS = 5;
const USER_AGENT = `control-plane-deploy/${version/* VERSION */.x}`;
/** Check a request body before it leaves: a bad body is our bug, and better caught here. */
async function checked(name, value) {
    return schemaOf(await loadSchema(), name).parse(value);
}
function schemaOf(model, name) {
    return model[name];
}
class ControlPlaneClient {
    #transport;
    redactor;
    /** How long one request may take before it is abandoned. */
    requestTimeoutMs;
    dialect;
    constructor(opts) {
        const problem = (0,base_url/* baseUrlProblem */.a)(opts.baseUrl);
        if (problem)
            throw new Error(`Refusing base URL: ${problem}.`);
        this.redactor = new control_plane_redact/* Redactor */.pO([opts.apiKey, ...(opts.secrets ?? [])]);
        const headers = {
            'X-Api-Key': opts.apiKey,
            Accept: 'application/json',
            'Content-Type': 'application/json',
            'User-Agent': USER_AGENT
        };
        if (opts.tenantId)
            headers['X-Tenant-Id'] = opts.tenantId;
        this.requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
        this.dialect = opts.dialect ?? 'interface';
        this.#transport = new Transport({
            baseUrl: opts.baseUrl,
            headers,
            requestTimeoutMs: this.requestTimeoutMs,
            deadline: opts.deadline,
            signal: opts.signal,
            retry: { ...DEFAULT_RETRY, ...opts.retry },
            maxBodyBytes: opts.maxBodyBytes ?? 32 * 1024 * 1024,
            redactor: this.redactor,
            debug: opts.debug,
            onRateLimited: opts.onRateLimited,
            sleep: opts.sleep,
            random: opts.random,
            now: opts.now
        });
    }
    /** Requests sent so far, retries included. */
    get requestCount() {
        return this.#transport.requestCount;
    }
    /** One page of `GET /v2/deployments`. */
    async listDeployments(query = {}) {
        return this.#call('list deployments', 'GET', '/v2/deployments', 'DeploymentList', {
            query: await checked('ListDeploymentsQuery', query)
        });
    }
    /**
     * Every deployment matching the query, page after page, each once; stops on a short page.
     * Throws EndlessListError when the list does not end (see paging.ts).
     */
    iterateDeployments(query = {}, pageSize = 100) {
        // Each page leaves as built (in the model's order of the parameters) and its query is checked
        // when the answer is read: the first page is often the run's first request, which then need
        // not wait for the model to load (load-schema.ts).
        return readAllPages(offset => this.#call('list deployments', 'GET', '/v2/deployments', 'DeploymentList', {
            query: { limit: pageSize, offset, ...query },
            checkQuery: 'ListDeploymentsQuery'
        }), pageSize, { operation: 'list deployments', method: 'GET', path: '/v2/deployments' }, 'deployment');
    }
    async createDeployment(body) {
        const payload = await checked('CreateDeploymentRequest', body);
        return this.#call('create deployment', 'POST', '/v2/deployments', 'Deployment', {
            body: payload
        });
    }
    async getDeployment(deploymentId, call = {}) {
        const path = `/v2/deployments/${seg(deploymentId)}`;
        return this.#call('get deployment', 'GET', path, 'Deployment', {
            ...call,
            verify: aboutDeployment(deploymentId)
        });
    }
    async patchDeployment(deploymentId, body) {
        const payload = await checked('PatchDeploymentRequest', body);
        return this.#call('patch deployment', 'PATCH', `/v2/deployments/${seg(deploymentId)}`, 'Deployment', { body: payload, verify: aboutDeployment(deploymentId) });
    }
    /** `POST .../revisions`, Terraform's update: a new revision from `body` (docs/decisions.md). */
    async createRevision(deploymentId, body) {
        const path = `/v2/deployments/${seg(deploymentId)}/revisions`;
        const payload = await checked('CreateRevisionRequest', body);
        return this.#call('create revision', 'POST', path, 'Revision', { body: payload });
    }
    /** A PATCH of the display name alone (no revision): one character at least, never cleared. */
    async setDisplayName(deploymentId, displayName) {
        const body = await checked('PatchDeploymentRequest', { display_name: displayName });
        const path = `/v2/deployments/${seg(deploymentId)}`;
        return this.#call('set display name', 'PATCH', path, 'Deployment', { body });
    }
    /** One page of the deployment's whole deploy log (the v1 POST); redacted and cut as below. */
    async getDeploymentLogs(deploymentId, opts = {}, call = {}) {
        const { type: _type, ...body } = await checked('RevisionLogsQuery', {
            ...opts,
            type: 'deploy'
        });
        const path = `/v1/projects/${seg(deploymentId)}/deploy_logs`;
        const extra = { ...call, body, idempotent: true };
        const page = await this.#call('get deployment logs', 'POST', path, 'RevisionLogPage', extra);
        const cut = (m) => (0,control_plane_redact/* capText */.yA)(this.redactor.redact(m), MAX_LOG_MESSAGE_CHARS);
        return { ...page, logs: page.logs.map(l => ({ ...l, message: cut(l.message) })) };
    }
    async getRevision(deploymentId, revisionId, call = {}) {
        const path = `/v2/deployments/${seg(deploymentId)}/revisions/${seg(revisionId)}`;
        // An answer about another revision is as malformed as one without an id: a status read
        // from it would be reported as this revision's.
        const verify = r => sameId(r.id, revisionId) ? undefined : otherId('revision', r.id, revisionId);
        return this.#call('get revision', 'GET', path, 'Revision', { ...call, verify });
    }
    /** One page of a deployment's revisions, newest first. */
    async listRevisions(deploymentId, query = {}, call = {}) {
        const { status, ...rest } = query;
        const wire = await checked('ListRevisionsQuery', {
            ...rest,
            status: typeof status === 'string' || status === undefined ? status : status.join(',')
        });
        const path = `/v2/deployments/${seg(deploymentId)}/revisions`;
        return this.#call('list revisions', 'GET', path, 'RevisionList', { ...call, query: wire });
    }
    /** Every revision of a deployment matching the query, newest first, each once; bounded. */
    iterateRevisions(deploymentId, query = {}, pageSize = 100) {
        const path = `/v2/deployments/${seg(deploymentId)}/revisions`;
        return readAllPages(offset => this.listRevisions(deploymentId, { ...query, limit: pageSize, offset }), pageSize, { operation: 'list revisions', method: 'GET', path }, 'revision');
    }
    /**
     * Redeploys a revision's configuration; the answer is the deployment (whose
     * `latest_revision_id` is usually a new revision). A write: an answer that is lost throws
     * OutcomeUnknownError, never a blind retry; the caller reconciles by reading the deployment.
     */
    async redeployRevision(deploymentId, revisionId) {
        const path = `/v2/deployments/${seg(deploymentId)}/revisions/${seg(revisionId)}/redeploy`;
        return this.#call('redeploy revision', 'POST', path, 'Deployment', {
            verify: aboutDeployment(deploymentId)
        });
    }
    /**
     * Deletes a deployment (and its tracing project when asked, which frees the name). A DELETE is
     * idempotent, so it is retried after a lost answer like a read; see DeleteOutcome for a 404.
     */
    async deleteDeployment(deploymentId, opts = {}, call = {}) {
        try {
            await this.#send({
                operation: 'delete deployment',
                method: 'DELETE',
                path: `/v2/deployments/${seg(deploymentId)}`,
                // Only when asked: the parameter's default is false, and an absent one is the same.
                query: opts.deleteTracingProject ? { delete_tracing_project: true } : undefined,
                deadline: call.deadline
            });
            return 'deleted';
        }
        catch (err) {
            if (err instanceof ApiError && err.status === 404)
                return err.afterUnknownOutcome ? 'deleted' : 'not-found';
            throw err;
        }
    }
    /**
     * One page of a revision's build or deploy log. Installations without the v2 path (a 404 there)
     * are asked once in the older v1 form; when that is a 404 too, the v2 error is thrown. Messages
     * are the build's own text: redacted of the client's known secrets and cut to
     * MAX_LOG_MESSAGE_CHARS, not sanitized (the caller does that before printing). Best effort
     * callers pass a short `deadline`.
     */
    async getRevisionLogs(deploymentId, revisionId, opts, call = {}) {
        const query = await checked('RevisionLogsQuery', opts);
        const revision = `${seg(deploymentId)}/revisions/${seg(revisionId)}`;
        let page;
        try {
            page = await this.#call('get revision logs', 'GET', `/v2/deployments/${revision}/logs`, 'RevisionLogPage', { ...call, query });
        }
        catch (err) {
            if (!(err instanceof ApiError && err.status === 404))
                throw err;
            const { order, limit, offset } = query;
            try {
                page = await this.#call('get revision logs', 'POST', `/v1/projects/${revision}/${query.type}_logs`, 'RevisionLogPage', { ...call, body: { order, limit, offset }, idempotent: true });
            }
            catch (v1) {
                throw v1 instanceof ApiError && v1.status === 404 ? err : v1;
            }
        }
        // Redacted before it is cut: a cut through a secret would hide it from the redactor.
        const logs = page.logs.map(line => ({
            ...line,
            message: (0,control_plane_redact/* capText */.yA)(this.redactor.redact(line.message), MAX_LOG_MESSAGE_CHARS)
        }));
        return { logs, next_offset: page.next_offset };
    }
    async deleteListener(listenerId) {
        await this.#send({
            operation: 'delete listener',
            method: 'DELETE',
            path: `/v2/listeners/${seg(listenerId)}`
        });
    }
    async listRepositories(integrationId) {
        const path = `/v1/integrations/forge/codehost/${seg(integrationId)}/repos`;
        return this.#call('list repositories', 'GET', path, 'RepositoryList');
    }
    /**
     * Waits before the caller tries again: `ms`, or the retry policy's jittered backoff of
     * `attempt`. False (at once) when that would end past the client's deadline, or when cancelled.
     */
    pause(attempt, ms) {
        return this.#transport.pause(attempt, ms);
    }
    close() {
        this.#transport.close();
    }
    /** Sends a request in the client's dialect: the path and the body translated to the wire. */
    #send(spec) {
        return this.#transport.send(this.#wire(spec));
    }
    #wire(spec) {
        const body = spec.body === undefined ? undefined : (0,dialect/* requestToWire */.U)(this.dialect, spec.body);
        return { ...spec, path: (0,dialect/* pathToWire */.QW)(this.dialect, spec.path), body };
    }
    async #call(operation, method, path, schema, extra = {}) {
        const { verify, checkQuery, ...rest } = extra;
        const spec = this.#wire({ operation, method, path, ...rest });
        const safe = extra.idempotent ?? method === 'GET';
        for (let attempt = 1;; attempt++) {
            try {
                const { status, json } = await this.#transport.send(spec);
                const model = await loadSchema();
                if (checkQuery)
                    schemaOf(model, checkQuery).parse(spec.query);
                const wire = (0,dialect/* responseFromWire */.xD)(this.dialect, json);
                const value = this.#parse(spec, status, wire, schemaOf(model, schema));
                const problem = verify?.(value);
                if (problem)
                    throw new OtherResourceError(spec, status, this.redactor.redact(problem));
                return value;
            }
            catch (err) {
                // A 2xx that is not JSON, or not the interface's shape, comes from a proxy's page or a
                // service in the middle of its own deploy as often as from a service that changed for
                // good. A read is safe to repeat; a service that really changed fails the same way each
                // time. Writes are reconciled by their callers instead (deploy/apply.ts).
                const misfit = err instanceof UnexpectedResponseError && safe;
                if (!misfit || attempt >= READ_ATTEMPTS || !(await this.#transport.pause(attempt)))
                    throw err;
            }
        }
    }
    #parse(spec, status, json, schema) {
        const parsed = schema.safeParse(json);
        if (parsed.success)
            return parsed.data;
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        const problem = issue ? `${where}${issue.message.toLowerCase()}` : 'does not fit the interface';
        throw new UnexpectedResponseError(spec, status, this.redactor.redact(problem));
    }
}
/** Ids go into paths as one segment, whatever they contain. */
function seg(id) {
    return encodeURIComponent(id);
}
/**
 * An answer about another deployment than the one asked for (a cache, a proxy or a service bug)
 * is as malformed as one without an id: acting on it would read, patch or delete the other one.
 */
function aboutDeployment(deploymentId) {
    return d => (sameId(d.id, deploymentId) ? undefined : otherId('deployment', d.id, deploymentId));
}
function otherId(what, got, asked) {
    return `the answer is about ${what} ${got}, not about ${what} ${asked} that was asked for`;
}
/** Uuids compare without regard to case. */
function sameId(a, b) {
    return a.toLowerCase() === b.toLowerCase();
}

;// CONCATENATED MODULE: ./src/deploy/deploy-error.ts
// A failure of the deploy flow itself (not of one request), with what to do about it.
class DeployError extends Error {
    hint;
    /** Short title for the job's error annotation. */
    title;
    constructor(message, hint, title = 'Deploy failed') {
        super(hint ? `${message}\n${hint}` : message);
        this.name = 'DeployError';
        this.hint = hint;
        this.title = title;
    }
}

// EXTERNAL MODULE: ./src/duration.ts
var duration = __nccwpck_require__(7607);
;// CONCATENATED MODULE: ./src/deploy/find-deployment.ts

async function findDeploymentByName(client, name) {
    const exact = [];
    for await (const d of client.iterateDeployments({ name_contains: name })) {
        if (d.name === name)
            exact.push(d);
    }
    const ids = new Set(exact.map(d => d.id));
    if (ids.size > 1) {
        throw new DeployError(`Several deployments are named "${name}" (${[...ids].join(', ')}).`, 'Pass deployment-id to choose one.');
    }
    return exact[0];
}

;// CONCATENATED MODULE: ./src/deploy/gone.ts



const FIRST_PAUSE_MS = 1000;
async function waitUntilGone(client, id, opts, deps) {
    const now = deps.now ?? Date.now;
    const sleep = deps.sleep ?? sleep_sleep;
    const start = now();
    let pause = FIRST_PAUSE_MS;
    let last;
    for (;;) {
        const status = await statusOf(client, id, start + opts.timeoutMs);
        if (status === undefined)
            return { kind: 'gone', elapsedMs: now() - start };
        if (status !== last)
            opts.onStatus?.(status, now() - start);
        last = status;
        if (now() - start >= opts.timeoutMs)
            return { kind: 'timeout', status: last };
        const left = Math.max(0, start + opts.timeoutMs - now());
        await sleep(Math.min(pause, opts.pollIntervalMs, left), deps.signal);
        pause *= 2;
    }
}
/** The deployment's status, or undefined once reads answer 404. */
async function statusOf(client, id, deadline) {
    try {
        return (await client.getDeployment(id, { deadline })).status;
    }
    catch (err) {
        if (err instanceof ApiError && err.status === 404)
            return undefined;
        throw err;
    }
}
/** The log line of the end of the wait. */
function goneLine(elapsedMs) {
    return `Gone after ${(0,duration/* formatDuration */.a)(elapsedMs)}: reads answer 404.`;
}

;// CONCATENATED MODULE: ./src/deploy/state.ts
function newState(o) {
    return {
        name: o.name,
        deploymentId: o.target.kind === 'id' ? o.target.deploymentId : undefined,
        created: false,
        plan: undefined,
        revisionId: undefined,
        revisionStatus: undefined,
        deploymentStatus: undefined,
        url: undefined,
        repoCommitSha: undefined,
        expectedSha: o.expectedSha,
        ref: o.ref,
        newerRevisionId: undefined,
        timeline: [],
        outcome: undefined,
        writing: undefined
    };
}
/** What a read of the deployment tells the state. */
function observe(state, d, log) {
    state.deploymentId = d.id;
    state.name = d.name;
    state.deploymentStatus = d.status;
    const url = d.source_config.custom_url;
    if (!url)
        return;
    if (isWellFormedUrl(url)) {
        state.url = url;
        return;
    }
    state.url = undefined;
    if (state.urlRefused)
        return;
    state.urlRefused = true;
    log.warning(`Deployment "${d.name}" has a custom_url that is not a well-formed http(s) URL: the url output is left empty.`, 'URL not used');
}
/**
 * The `url` output is the server's text, written as it is: only a plain http(s) URL, with no
 * whitespace, control characters or workflow-command markers, where anything may read it.
 */
function isWellFormedUrl(text) {
    if (text.length > 2000 || /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text))
        return false;
    if (text.includes('##[') || /^[^:]*::/.test(text))
        return false;
    try {
        const u = new URL(text);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    }
    catch {
        return false;
    }
}
/**
 * A write, marked as in flight while it runs: a cancel cuts it off with its outcome unknown,
 * whereas a write that ended (answered, or failed after reconciling) is known.
 */
async function writing(state, deps, kind, write) {
    state.writing = kind;
    try {
        return await write();
    }
    finally {
        if (!deps.signal?.aborted)
            state.writing = undefined;
    }
}

;// CONCATENATED MODULE: ./src/deploy/delete.ts
// `command: delete`: the one deployment of this exact name (or id) is deleted, and with `wait` the
// run sees it gone. Cleanup jobs re-run and pull requests close before a first deploy finished, so
// a deployment that is not there is a success, not an error.






async function deleteDeployment(o, state, deps) {
    const { log } = deps;
    state.deleted = false;
    // A delete builds nothing: no ref or commit to report.
    state.ref = undefined;
    state.expectedSha = undefined;
    const absent = o.target.kind === 'id'
        ? `No deployment has the id ${o.target.deploymentId}`
        : `No deployment is named "${o.name}"`;
    const found = await log.group('Find the deployment', () => findToDelete(o, deps, absent));
    if (!found) {
        state.outcome = 'absent';
        log.notice(`${absent}: nothing to delete.`, 'Nothing to delete');
        return;
    }
    state.deploymentId = found.id;
    state.name = found.name;
    state.deploymentStatus = found.status;
    const project = o.deleteTracingProject ? ' and its tracing project' : '';
    if (o.dryRun) {
        state.outcome = 'dry-run';
        log.info(`Dry run: would delete deployment "${found.name}" (${found.id})${project}. Nothing was deleted.`);
        return;
    }
    const answer = await log.group('Delete the deployment', () => send(o, state, deps, found));
    if (answer === 'not-found') {
        state.outcome = 'absent';
        state.deploymentStatus = undefined;
        return;
    }
    state.outcome = 'deleted';
    if (!o.wait)
        return;
    await log.group('Wait until it is gone', () => waitGone(o, state, deps, found.id));
}
/** The deployment the inputs name, or undefined when there is none (a 404 on an id too). */
async function findToDelete(o, deps, absent) {
    const { client, log } = deps;
    const target = o.target;
    const d = target.kind === 'id'
        ? await client.getDeployment(target.deploymentId).catch(err => {
            if (err instanceof ApiError && err.status === 404)
                return undefined;
            throw err;
        })
        : await findDeploymentByName(client, target.name);
    if (d && target.kind === 'id' && o.name !== undefined && d.name !== o.name) {
        throw new DeployError(`Deployment ${target.deploymentId} is named "${d.name}", not "${o.name}": nothing was deleted.`, 'Set name and deployment-id to the same deployment, or only one of them.', 'Name and deployment-id disagree');
    }
    if (d)
        log.info(`Found deployment "${d.name}" (${d.id}), status ${d.status}.`);
    else
        log.info(`${absent}.`);
    return d;
}
/** The DELETE, reconciled by a read when no answer came. */
async function send(o, state, deps, found) {
    const { client, log } = deps;
    const a = await writing(state, deps, 'delete', () => client
        .deleteDeployment(found.id, { deleteTracingProject: o.deleteTracingProject })
        .catch(async (err) => {
        // No answer after every retry: what the control plane holds now decides.
        if (!(err instanceof ControlPlaneError) || err instanceof ApiError)
            throw err;
        log.warning(`${err.message.split('\n')[0]}; reading the deployment back.`);
        return (await isGone(deps, found.id)) ? 'deleted' : Promise.reject(err);
    }));
    if (a === 'not-found') {
        // Someone else deleted it between the look-up and this request: not this run's doing.
        log.info(`Deployment "${found.name}" (${found.id}) was already gone when the delete arrived.`);
        return a;
    }
    state.deleted = true;
    const project = o.deleteTracingProject ? ' and its tracing project' : '';
    log.info(`Deleted deployment "${found.name}" (${found.id})${project}.`);
    if (!o.deleteTracingProject) {
        log.info(`Its tracing project "${found.name}" was kept, so the name stays taken; set delete-tracing-project: true to free it.`);
    }
    return a;
}
async function isGone(deps, id) {
    try {
        const d = await deps.client.getDeployment(id);
        return d.status === 'AWAITING_DELETE';
    }
    catch (err) {
        if (err instanceof ApiError && err.status === 404)
            return true;
        throw err;
    }
}
/** Reads until a 404: `AWAITING_DELETE` in between, bounded by `timeout`. */
async function waitGone(o, state, deps, id) {
    const result = await waitUntilGone(deps.client, id, {
        timeoutMs: o.timeoutMs,
        pollIntervalMs: o.pollIntervalMs,
        onStatus: (status, ms) => {
            state.deploymentStatus = status;
            deps.log.info(`${status} after ${(0,duration/* formatDuration */.a)(ms)}`);
        }
    }, deps);
    if (result.kind === 'gone') {
        state.deploymentStatus = undefined;
        deps.log.info(goneLine(result.elapsedMs));
        return;
    }
    state.outcome = 'timeout';
    throw new DeployError(`Timed out: deployment ${id} is still ${result.status} after ${(0,duration/* formatDuration */.a)(o.timeoutMs)}; the delete goes on on the control plane.`, 'Raise timeout, or use wait: false.', 'Delete timed out');
}

;// CONCATENATED MODULE: ./src/health/target.ts
// Where the health probes go: the deployment's custom_url with the health path appended. The
// probes carry the api-key, so only a URL whose traffic cannot be read on the way is accepted:
// https, or plain http to this machine (a loopback address). Checked before any connection.

/**
 * The probe URL for `customUrl` and `path` (which starts with `/` and may carry a query), or why
 * it may not be probed. The path is appended to the URL's own path, never resolved against it,
 * so it cannot name another host.
 */
function probeTarget(customUrl, path) {
    if (!customUrl)
        return {
            problem: 'the deployment has no source_config.custom_url, so there is no agent server address to probe'
        };
    let base;
    try {
        base = new URL(customUrl);
    }
    catch {
        return { problem: `its custom_url "${customUrl}" is not a URL` };
    }
    if (base.username || base.password)
        return { problem: `its custom_url for ${base.host} carries credentials, which are not sent` };
    if (base.protocol === 'http:' && !(0,base_url/* isLoopbackHost */.c)(base.hostname))
        return {
            problem: `its custom_url ${base.origin} is plain http to another machine: the api-key is sent only over https or to a loopback address`
        };
    if (base.protocol !== 'https:' && base.protocol !== 'http:')
        return { problem: `its custom_url ${base.origin} is not an http(s) URL` };
    const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
    let url;
    try {
        url = new URL(`${prefix}${path}`);
    }
    catch {
        return { problem: `${prefix}${path} is not a URL` };
    }
    // Guards the rule above against any parsing surprise: the key goes to that origin only.
    if (url.origin !== base.origin)
        return { problem: `${path} leaves ${base.origin}` };
    return { url };
}

;// CONCATENATED MODULE: ./src/health/probe.ts
// One health probe: a GET with X-Api-Key to exactly the URL given, bounded in time, following no
// redirect, reading at most a few kilobytes of the answer. Behind a proxy the environment names for
// that URL, it goes through @actions/http-client's tunnelling agent (loaded only then, as the
// control-plane transport does), so TLS still ends at the agent server.



/** More than enough for `{"ok": true}` or an error page's first lines. */
const MAX_PROBE_BODY = 4096;
class ProbeTimeoutError extends Error {
    constructor(ms) {
        super(`no answer within ${ms} ms`);
        this.name = 'ProbeTimeoutError';
    }
}
async function agentFor(url) {
    if (!(0,proxy/* getProxyUrl */.s)(url)?.hostname)
        return false;
    const { HttpClient } = await Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(779)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2779));
    const client = new HttpClient(undefined, [], { allowRedirects: false, allowRetries: false });
    return client.getAgent(url.href);
}
const httpProbe = async (req) => {
    const timeout = AbortSignal.timeout(Math.max(1, req.timeoutMs));
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    const agent = await agentFor(req.url);
    const lib = req.url.protocol === 'https:' ? external_node_https_namespaceObject : external_node_http_;
    return new Promise((resolve, reject) => {
        const fail = (err) => reject(timeout.aborted && !req.signal?.aborted ? new ProbeTimeoutError(req.timeoutMs) : err);
        const request = lib.request(req.url, {
            method: 'GET',
            // A fresh connection per probe, closed after it: no socket outlives the check.
            agent,
            headers: { ...req.headers, connection: 'close' },
            signal
        });
        request.on('error', fail);
        request.on('response', res => {
            const chunks = [];
            let size = 0;
            const done = () => {
                const location = res.headers.location;
                resolve({
                    status: res.statusCode ?? 0,
                    ...(location ? { location } : {}),
                    body: Buffer.concat(chunks).toString('utf8')
                });
            };
            res.on('data', (chunk) => {
                if (size >= MAX_PROBE_BODY)
                    return;
                chunks.push(chunk.subarray(0, MAX_PROBE_BODY - size));
                size += chunk.length;
                // The status is the answer; the rest of a long body is not waited for.
                if (size >= MAX_PROBE_BODY) {
                    done();
                    res.destroy();
                }
            });
            res.on('end', done);
            res.on('error', fail);
            res.on('aborted', () => fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
        });
        request.end();
    });
};

;// CONCATENATED MODULE: ./src/health/gate.ts
// The health gate: after DEPLOYED, ask the agent server itself. Until its first 2xx the probes go
// on (about every interval) until the deadline; from the first 2xx on, every probe for the window
// must be 2xx. Every probe answering 404 means the server's health routes are turned off:
// `unavailable`, which is not a failure. Each answer is redacted and cut short before it is kept.




const DEFAULT_PROBE_INTERVAL_MS = 5000;
const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
/** This many probes answered 404, and nothing else, is enough to call the routes turned off. */
const UNAVAILABLE_AFTER = 3;
/** Answers kept for the report. */
const KEPT = 3;
const EXCERPT_CHARS = 120;
/** The probe URL may not carry the key: no connection is made, and this says why. */
class HealthTargetError extends Error {
    constructor(message) {
        super(message);
        this.name = 'HealthTargetError';
    }
}
async function checkHealth(o) {
    const target = probeTarget(o.url, o.path);
    if ('problem' in target)
        throw new HealthTargetError(o.redactor.redact(target.problem));
    const url = target.url;
    const now = o.now ?? Date.now;
    const sleep = o.sleep ?? sleep_sleep;
    const interval = o.intervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
    const start = now();
    const answers = [];
    let probes = 0;
    let only404 = true;
    let windowEnd;
    const result = (health, reason) => ({
        health,
        probes,
        answers: answers.slice(-KEPT),
        ...(reason ? { reason } : {}),
        elapsedMs: now() - start
    });
    for (;;) {
        if (o.signal?.aborted)
            return result('cancelled');
        const answer = await probeOnce(o, url);
        if (o.signal?.aborted)
            return result('cancelled');
        probes++;
        answers.push(answer);
        o.onProbe?.(probes, answer);
        const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
        if (answer.status !== 404)
            only404 = false;
        if (windowEnd !== undefined && !ok)
            return result('unhealthy', `probe ${probes} failed after the agent server had answered 2xx`);
        if (windowEnd === undefined && ok)
            windowEnd = now() + o.windowMs;
        if (windowEnd === undefined && only404 && probes >= UNAVAILABLE_AFTER)
            return result('unavailable');
        const end = windowEnd ?? o.deadline;
        if (now() >= end) {
            if (windowEnd !== undefined)
                return result('healthy');
            if (only404)
                return result('unavailable');
            return result('unhealthy', `no probe answered 2xx before the timeout (${probes} probes)`);
        }
        try {
            await sleep(Math.min(interval, end - now()), o.signal);
        }
        catch {
            return result('cancelled');
        }
    }
}
/**
 * One probe, bounded by the probe timeout even at the deadline: the check ends at most that long
 * after the deadline (or the window), and a slow last answer is still read whole.
 */
async function probeOnce(o, url) {
    const transport = o.transport ?? httpProbe;
    const timeoutMs = o.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    let res;
    try {
        res = await transport({
            url,
            headers: { 'x-api-key': o.apiKey, accept: 'application/json' },
            timeoutMs,
            ...(o.signal ? { signal: o.signal } : {})
        });
    }
    catch (err) {
        return { status: null, excerpt: describeError(err, o.redactor) };
    }
    return { status: res.status, excerpt: excerptOf(res, url, o.redactor) };
}
function excerptOf(res, url, redactor) {
    if (res.status >= 300 && res.status < 400) {
        let where = 'nowhere (no Location)';
        if (res.location) {
            try {
                where = new URL(res.location, url).host;
            }
            catch {
                where = 'an invalid Location';
            }
        }
        return (0,control_plane_redact/* sanitizeServerText */.c8)(redactor.redact(`redirect to ${where}, not followed`), EXCERPT_CHARS);
    }
    // Redacted before it is cut: a cut through a secret would hide it from the redactor.
    return (0,control_plane_redact/* sanitizeServerText */.c8)(redactor.redact(res.body), EXCERPT_CHARS);
}
function describeError(err, redactor) {
    if (err instanceof ProbeTimeoutError)
        return err.message;
    const e = err;
    const text = e.code === 'ECONNRESET'
        ? 'the connection was reset'
        : e.code === 'ECONNREFUSED'
            ? 'the connection was refused'
            : e.code
                ? `no answer (${e.code})`
                : `no answer (${e instanceof Error ? e.message : String(err)})`;
    return (0,control_plane_redact/* sanitizeServerText */.c8)(redactor.redact(text), EXCERPT_CHARS);
}

;// CONCATENATED MODULE: ./src/deploy/failure-logs.ts
// The last lines of a failed revision's log, fetched best effort and made safe to print. Log lines
// are what the build printed: untrusted text that may hold secret values, workflow commands and
// terminal codes. A log that cannot be read costs one warning and a bounded time, never the
// verdict.

/**
 * The whole look at the logs ends by then: a slow or stalled log service must not hold a job
 * that has already failed for long, and a few seconds are plenty for one small page.
 */
const LOG_BUDGET_MS = 10_000;
/** Longer lines are cut: a minified bundle or a dumped payload says nothing in a job log. */
const MAX_LINE_CHARS = 400;
/** The excerpt as a whole, so that a summary stays readable (and under GitHub's 1 MiB cap). */
const MAX_EXCERPT_CHARS = 24_000;
/** The service pages at most this many lines. */
const MAX_LINES = 1000;
/** Which log tells why a revision ended with this status, in the order to try. */
function logTypesFor(status) {
    if (status === 'BUILD_FAILED')
        return ['build'];
    // A DEPLOYED revision whose server is unhealthy: the server's start-up is in the deploy log.
    if (status === 'DEPLOY_FAILED' || status === 'DEPLOYED')
        return ['deploy'];
    return ['build', 'deploy'];
}
/**
 * The last `lines` lines of the log that explains `status`: fetched newest first (one request per
 * log type tried), returned oldest first. Never throws.
 */
async function readFailureLog(reader, ids, status, lines, redactor, deadline) {
    const limit = Math.min(Math.max(1, lines), MAX_LINES);
    for (const type of logTypesFor(status)) {
        try {
            const page = await reader.getRevisionLogs(ids.deploymentId, ids.revisionId, { type, order: 'desc', limit }, { deadline });
            if (!page.logs.length)
                continue;
            const newestFirst = page.logs.slice(0, limit);
            return { kind: 'log', log: cleanLog(type, newestFirst.reverse(), redactor) };
        }
        catch (err) {
            if (isNotFound(err))
                continue;
            const text = err instanceof Error ? err.message.split('\n')[0] : String(err);
            return { kind: 'error', reason: redactor.redact((0,control_plane_redact/* sanitizeServerText */.c8)(text ?? '', 300)) };
        }
    }
    const which = logTypesFor(status).join(' or ');
    return {
        kind: 'none',
        reason: `the control plane has no ${which} log for it`
    };
}
function isNotFound(err) {
    return typeof err === 'object' && err !== null && err.status === 404;
}
/** Secrets out first (a cut could split one), then control characters and workflow commands. */
function cleanLog(type, entries, redactor) {
    const cleaned = entries.map(e => {
        const level = e.level ? (0,control_plane_redact/* sanitizeServerText */.c8)(e.level, 10).toUpperCase() : '';
        const message = (0,control_plane_redact/* sanitizeServerText */.c8)(redactor.redact(e.message), MAX_LINE_CHARS);
        return { level, line: level ? `${level.padEnd(7)} ${message}` : message, message };
    });
    // Oldest lines go first when the whole is too long: the end of a log says why it failed.
    let total = cleaned.reduce((n, c) => n + c.line.length + 1, 0);
    while (cleaned.length > 1 && total > MAX_EXCERPT_CHARS)
        total -= cleaned.shift().line.length + 1;
    const errorLine = [...cleaned].reverse().find(c => /^(ERROR|CRITICAL|FATAL)$/.test(c.level));
    const saysError = [...cleaned].reverse().find(c => /\b(error|failed|fatal)\b/i.test(c.message));
    const telling = (errorLine ?? saysError)?.message;
    return {
        type,
        lines: cleaned.map(c => c.line),
        telling: telling === undefined ? undefined : (0,control_plane_redact/* sanitizeServerText */.c8)(telling, 200)
    };
}
/** A fenced block that no line of the log can close early. */
function fenced(lines) {
    const longest = Math.max(2, ...lines.map(l => Math.max(0, ...[...l.matchAll(/`+/g)].map(m => m[0].length))));
    const fence = '`'.repeat(longest + 1);
    return [fence, ...lines, fence].join('\n');
}

;// CONCATENATED MODULE: ./src/deploy/plan.ts



const HIDDEN = '***';
/** How a change shows a secret that the update deletes. */
const REMOVED = '(removed)';
/** `source_config` fields the inputs set; unset inputs are left out so the service keeps them. */
function sourceConfigFromInputs(o) {
    const c = {};
    if (o.buildOnPush !== undefined)
        c.build_on_push = o.buildOnPush;
    if (o.customUrl !== undefined)
        c.custom_url = o.customUrl;
    if (o.resourceSpec !== undefined)
        c.resource_spec = o.resourceSpec;
    if (o.k8sNamespace !== undefined)
        c.listener_config = { k8s_namespace: o.k8sNamespace };
    if (o.installCommand !== undefined)
        c.install_command = o.installCommand;
    if (o.buildCommand !== undefined)
        c.build_command = o.buildCommand;
    return c;
}
function revisionConfigFromInputs(o, ref) {
    const r = {};
    if (o.source === 'codehost') {
        if (ref !== undefined)
            r.repo_ref = ref;
        r.graph_config_path = o.graphConfigPath;
    }
    if (o.imageUri !== undefined)
        r.image_uri = o.imageUri;
    return r;
}
function planCreate(o, name, repo) {
    const sourceConfig = sourceConfigFromInputs(o);
    let ref = o.ref;
    if (o.source === 'codehost') {
        if (!repo || !o.integrationId) {
            throw new DeployError(`Creating codehost deployment "${name}" needs the repository of a forge integration.`, 'Set integration-id (and repository, when it is not this workflow’s repository).', 'Missing input');
        }
        sourceConfig.integration_id = o.integrationId;
        sourceConfig.repo_url = repo.url;
        ref ??= repo.default_branch;
        if (o.deploymentType !== undefined)
            sourceConfig.deployment_type = o.deploymentType;
    }
    // Fields that only a create may set.
    if (o.listenerId !== undefined)
        sourceConfig.listener_id = o.listenerId;
    const body = {
        name,
        source: o.source,
        source_config: sourceConfig,
        source_revision_config: revisionConfigFromInputs(o, ref),
        secrets: o.secrets ?? []
    };
    if (o.secretReferences !== undefined)
        body.secret_references = o.secretReferences;
    return { kind: 'create', name, body, changes: diff(body, undefined) };
}
function planUpdate(o, current) {
    if (current.source !== o.source && (0,dialect/* isOtherDialectsWord */.Cz)(current.source, o.source)) {
        const other = o.apiDialect === 'interface' ? 'langsmith' : 'interface';
        throw new DeployError(`Deployment "${current.name}" (${current.id}) reads as source ${current.source}, the ${other} dialect's word for ${o.source}: this control plane speaks the ${other} names, not the ${o.apiDialect} names this run speaks.`, `Set api-dialect: ${other}; changing source would not help.`, 'Wrong API dialect');
    }
    if (current.source !== o.source) {
        throw new DeployError(`Deployment "${current.name}" (${current.id}) has source ${current.source}, but the source input is ${o.source}.`, `A deployment's source cannot change: set source: ${current.source}, or deploy under another name.`, 'Source mismatch');
    }
    // Create-only settings: asked for differently, the run would deploy what was not asked.
    const createOnly = [
        ['integration-id', o.integrationId, current.source_config.integration_id],
        ['deployment-type', o.deploymentType, current.source_config.deployment_type],
        ['listener-id', o.listenerId, current.source_config.listener_id]
    ];
    for (const [input, asked, theirs] of createOnly) {
        if (asked !== undefined && theirs && asked !== theirs) {
            throw new DeployError(`Deployment "${current.name}" (${current.id}) has ${input} ${(0,control_plane_redact/* sanitizeServerText */.c8)(theirs, 100)}, but the ${input} input is ${asked}.`, `The ${input} of a deployment cannot change after create: set it to the deployment’s, or deploy under another name.`, `${input} cannot change`);
        }
    }
    const otherRepository = repositoryMismatch(o, current);
    const body = {};
    const sourceConfig = sourceConfigFromInputs(o);
    if (Object.keys(sourceConfig).length)
        body.source_config = sourceConfig;
    const revisionConfig = revisionConfigFromInputs(o, o.ref);
    if (Object.keys(revisionConfig).length)
        body.source_revision_config = revisionConfig;
    if (o.secrets !== undefined)
        body.secrets = o.secrets;
    if (o.secretReferences !== undefined)
        body.secret_references = o.secretReferences;
    if (o.revisionSource !== undefined)
        body.revision_source = o.revisionSource;
    const newRevision = body.source_revision_config !== undefined || body.secrets !== undefined;
    const kept = new Set(body.secrets?.map(s => s.name));
    const removedSecrets = body.secrets
        ? current.secrets
            .map(s => s.name)
            .filter(name => !kept.has(name))
            .map(shownName)
        : [];
    return {
        kind: 'update',
        deploymentId: current.id,
        name: current.name,
        body,
        changes: diff(body, current),
        newRevision,
        removedSecrets,
        otherRepository
    };
}
/**
 * `owner/name` of a repository URL (`https://host/owner/name(.git)`), lower-cased; undefined when
 * the URL has no such path.
 */
function ownerAndName(repoUrl) {
    const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(.+)$/i.exec(repoUrl.trim())?.[1] ?? '';
    const parts = path
        .replace(/\.git$/i, '')
        .replace(/\/+$/, '')
        .split('/');
    if (parts.length < 2)
        return undefined;
    return parts.slice(-2).join('/').toLowerCase();
}
/**
 * A deployment keeps the repository it was created from. Asking for another one by input is an
 * error (the run would deploy the wrong code); the workflow's own repository differing is only
 * worth a warning, since a deployment may well be fed by another repository's workflow.
 */
function repositoryMismatch(o, current) {
    const repoUrl = current.source_config.repo_url;
    if (o.source !== 'codehost' || !o.repository || !repoUrl)
        return undefined;
    const theirs = ownerAndName(repoUrl);
    if (!theirs || theirs === o.repository.toLowerCase())
        return undefined;
    const shown = (0,control_plane_redact/* sanitizeServerText */.c8)(repoUrl, 300);
    if (o.repositoryExplicit) {
        throw new DeployError(`Deployment "${current.name}" (${current.id}) builds ${shown}, but repository is ${o.repository}.`, 'The repository of a deployment cannot change after create: set repository to the deployment’s, or deploy under another name.', 'Repository mismatch');
    }
    return { deployment: shown, workflow: o.repository };
}
/** Each leaf the body sets, with the current value where it differs; secrets by name only. */
function diff(body, current) {
    const changes = [];
    const leaf = (field, to, from) => {
        const t = show(to);
        // The current value is the service's text: log-safe before it is shown.
        const f = from === undefined || from === null ? undefined : (0,control_plane_redact/* sanitizeServerText */.c8)(show(from), 300);
        if (t !== f)
            changes.push({ field, from: f, to: t });
    };
    for (const [key, value] of Object.entries(body)) {
        if (value === undefined || value === null)
            continue;
        if (key === 'secrets') {
            const old = new Map((current?.secrets ?? []).map(s => [s.name, s.value]));
            const listed = value;
            for (const s of listed) {
                const before = old.get(s.name);
                if (!old.has(s.name))
                    changes.push({ field: `secrets.${s.name}`, from: undefined, to: HIDDEN });
                // A service that hides values cannot be compared: show it as set again.
                else if (before !== s.value)
                    changes.push({ field: `secrets.${s.name}`, from: HIDDEN, to: HIDDEN });
            }
            // The list replaces the whole set: what it leaves out is deleted.
            const names = new Set(listed.map(s => s.name));
            for (const name of old.keys()) {
                if (!names.has(name))
                    changes.push({ field: `secrets.${shownName(name)}`, from: HIDDEN, to: REMOVED });
            }
            continue;
        }
        if (key === 'source_config' || key === 'source_revision_config') {
            const was = (current?.[key] ?? {});
            for (const [k, v] of Object.entries(value)) {
                if (v !== undefined && v !== null)
                    leaf(`${key}.${k}`, v, was[k]);
            }
            continue;
        }
        leaf(key, value, current ? current[key] : undefined);
    }
    return changes;
}
/** A secret's name as the deployment has it: the service's text, made log-safe. */
function shownName(name) {
    return (0,control_plane_redact/* sanitizeServerText */.c8)(name, 100);
}
function show(v) {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
/** The plan as lines for the log and the dry-run summary. */
function describePlan(plan) {
    const head = plan.kind === 'create'
        ? `Create deployment "${plan.name}" (source ${plan.body.source})`
        : `Update deployment "${plan.name}" (${plan.deploymentId})` +
            (plan.newRevision ? ', making a new revision' : ', without a new revision');
    const lines = [head];
    if (!plan.changes.length)
        lines.push('  no field changes');
    if (plan.kind === 'update' && plan.removedSecrets.length) {
        lines.push(`  removes ${plan.removedSecrets.length === 1 ? 'secret' : 'secrets'} ${plan.removedSecrets.join(', ')}: the secrets input replaces the whole set`);
    }
    for (const c of plan.changes) {
        lines.push(c.from === undefined ? `  ${c.field}: ${c.to}` : `  ${c.field}: ${c.from} -> ${c.to}`);
    }
    return lines;
}

;// CONCATENATED MODULE: ./src/deploy/apply.ts



/** Sends of one write in all, the first included (as many as the transport's attempts). */
const MAX_WRITE_ATTEMPTS = 5;
async function createOrAdopt(client, body, notes, now = Date.now) {
    /** An earlier send of this create may have been applied after all. */
    let maybeApplied = false;
    for (let attempt = 1;; attempt++) {
        try {
            return { kind: 'created', deployment: await client.createDeployment(body) };
        }
        catch (err) {
            if (err instanceof ApiError && isNameTaken(err)) {
                const existing = await findDeploymentByName(client, body.name);
                if (existing && maybeApplied && isWhatWasAsked(existing, body)) {
                    // Our earlier send landed late (or another run asked for the very same): nothing to do.
                    notes.info(`Deployment "${body.name}" exists (${existing.id}) as this run asked: an earlier try of the create went through.`);
                    return { kind: 'created', deployment: existing };
                }
                if (existing) {
                    notes.info(`Deployment "${body.name}" was created by another run at the same time: updating it.`);
                    return { kind: 'taken', deployment: existing };
                }
                throw err;
            }
            const unknown = outcomeUnknown(err);
            if (!unknown)
                throw err;
            maybeApplied = true;
            notes.warning(`${unknown.message}; looking the name up before trying again.`);
            const existing = await lookBack(client, unknown, now, () => findDeploymentByName(client, body.name));
            if (existing) {
                notes.info(`Deployment "${body.name}" exists (${existing.id}): the create went through.`);
                return { kind: 'created', deployment: existing };
            }
            if (attempt >= MAX_WRITE_ATTEMPTS || !(await client.pause(attempt)))
                throw unknown;
            notes.info(`Deployment "${body.name}" does not exist: the create was not applied; sending it again.`);
        }
    }
}
function isNameTaken(err) {
    return err.status === 409 || (err.status === 400 && /already exists/i.test(err.detail));
}
/**
 * A write whose answer did not come or did not fit, as an OutcomeUnknownError: a 2xx that is not
 * JSON or not a Deployment may well have been applied, so it is reconciled like a lost answer.
 */
function outcomeUnknown(err) {
    if (err instanceof OutcomeUnknownError)
        return err;
    // An answer about another deployment is a lie to stop at, not an answer that got lost.
    if (err instanceof UnexpectedResponseError && !(err instanceof OtherResourceError)) {
        return new OutcomeUnknownError(err, `HTTP ${err.status}, ${err.problem}`, { cause: err });
    }
    return undefined;
}
/** Whether a deployment found under the name is the one `body` asks for (same source settings). */
function isWhatWasAsked(d, body) {
    const same = (asked, got) => Object.entries(asked).every(([k, v]) => v === undefined ||
        v === null ||
        JSON.stringify(v) === JSON.stringify(got[k]));
    return (d.source === body.source &&
        same(body.source_config, d.source_config) &&
        same(body.source_revision_config, d.source_revision_config));
}
/**
 * Looks for a write that may have been applied. One look, unless no answer came in time: then
 * the server may still be working on the write, so it is watched for about as long again as the
 * request was given (the pauses growing from 1 s), before the caller sends it again. A write that
 * lands later still would make a second one: the interface has no idempotency key to prevent it.
 */
async function lookBack(client, unknown, now, look) {
    const found = await look();
    if (found !== undefined || !unknown.pending)
        return found;
    const until = now() + client.requestTimeoutMs;
    for (let i = 0; now() < until; i++) {
        const pause = Math.min(1000 * 2 ** i, until - now());
        if (pause <= 0 || !(await client.pause(i + 1, pause)))
            return undefined;
        const again = await look();
        if (again !== undefined)
            return again;
    }
    return undefined;
}
/**
 * Patches, and when the answer is lost reads the deployment back: a new `latest_revision_id`
 * means the patch was applied and that revision is ours; none means it was not, and it is sent
 * again. A patch that makes no revision is idempotent, so sending it again is safe.
 */
function patchReconciled(client, current, body, newRevision, notes, now = Date.now) {
    return writeReconciled(client, current, () => client.patchDeployment(current.id, body), newRevision, 'patch', notes, now);
}
/**
 * A write that makes a revision of `current` (a patch, a redeploy), sent until it is known to
 * have landed: after a lost answer, a new `latest_revision_id` on the deployment means it did,
 * and it is never sent twice; no new revision means it did not, and it is sent again.
 */
async function writeReconciled(client, current, write, newRevision, what, notes, now = Date.now) {
    const before = current.latest_revision_id;
    for (let attempt = 1;; attempt++) {
        try {
            return await write();
        }
        catch (err) {
            const unknown = outcomeUnknown(err);
            if (!unknown)
                throw err;
            notes.warning(`${unknown.message}; reading the deployment back before trying again.`);
            if (newRevision) {
                const landed = await lookBack(client, unknown, now, async () => {
                    const d = await client.getDeployment(current.id);
                    return d.latest_revision_id && d.latest_revision_id !== before ? d : undefined;
                });
                if (landed) {
                    notes.info(`The ${what} went through: revision ${landed.latest_revision_id} appeared.`);
                    return landed;
                }
            }
            if (attempt >= MAX_WRITE_ATTEMPTS || !(await client.pause(attempt)))
                throw unknown;
            notes.info(`No new revision appeared: the ${what} was not applied; sending it again.`);
        }
    }
}
/** Pauses of the look for a revision that the write's answer did not name yet. */
const LATE_REVISION_PAUSES_MS = [1000, 2000, 4000];
/**
 * After a write (an update, a redeploy) answered with the revision from before: reads the
 * deployment a few times (about 7 s in all, within the run's deadline) for a new
 * `latest_revision_id`. Undefined when none appeared: the control plane made no revision for it.
 */
async function awaitNewRevision(client, deploymentId, before, notes, what = 'update') {
    notes.info(`The ${what}'s answer names no new revision (still ${before ?? 'none'}): reading the deployment again.`);
    for (let i = 0; i < LATE_REVISION_PAUSES_MS.length; i++) {
        if (!(await client.pause(i + 1, LATE_REVISION_PAUSES_MS[i])))
            return undefined;
        const now = await client.getDeployment(deploymentId);
        if (now.latest_revision_id && now.latest_revision_id !== before) {
            notes.info(`Revision ${now.latest_revision_id} appeared for this ${what}.`);
            return now;
        }
    }
    return undefined;
}
/** The revision a write made: the id the write answered with, read back once if it was null. */
async function revisionOf(client, d) {
    if (d.latest_revision_id)
        return d.latest_revision_id;
    const again = await client.getDeployment(d.id);
    if (again.latest_revision_id)
        return again.latest_revision_id;
    throw new DeployError(`The control plane accepted the change to deployment ${d.id} but reports no revision for it.`, 'Look at the deployment on the control plane; re-run the job to try again.');
}

// EXTERNAL MODULE: ./src/control-plane/vocabulary.ts
var vocabulary = __nccwpck_require__(8072);
;// CONCATENATED MODULE: ./src/deploy/wait.ts
// Polls one revision until it is DEPLOYED, failed, superseded, or the deadline. The cadence is
// fast at the start and after every change of status, backs off towards poll-interval while
// nothing changes, and stays tight once the revision is past its build: DEPLOYED follows DEPLOYING,
// so that is when a slow poll would cost the pipeline time. During a build it backs off to a share
// of the time waited: a long build costs few requests, a short one cannot hide a short deploy
// stage behind one long pause. bench/RESULTS.md measures the cadence against fixed pollers.




const DEFAULT_CADENCE = {
    initialMs: 1000,
    factor: 2,
    restartShare: 0.03,
    nearDoneShare: 0.03,
    buildShare: 0.2,
    buildFloorMs: 2000
};
/** Stages from which the revision cannot become DEPLOYED at the next poll. */
const EARLY_STATUSES = new Set(['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING']);
const BUILD_STATUSES = new Set(['AWAITING_BUILD', 'BUILDING']);
/** The poll sent at the deadline may take this long to answer. */
const FINAL_POLL_GRACE_MS = 2000;
/** Statuses after which polling again cannot help: wrong key, tenant, ids or request. */
const FINAL_HTTP = new Set([400, 401, 403, 404, 422]);
/**
 * A revision that the write has just returned may not be readable at once where the read is
 * served (a replica behind the write). Seconds cover that lag; a wrong id or tenant still fails
 * soon after, not at the timeout.
 */
const NOT_FOUND_GRACE_MS = 10_000;
const KNOWN_STATUSES = new Set(vocabulary/* REVISION_STATUSES */.X_);
/**
 * The pause after a poll. A change restarts it short; otherwise it grows by the factor. Past the
 * build it never exceeds `nearDoneShare` of the time waited, which bounds how late DEPLOYED is
 * seen to that share of the deploy's duration (or `initialMs` for a short one).
 */
function nextPause(previousMs, changed, status, elapsedMs, pollIntervalMs, c) {
    let pause = changed ? Math.max(c.initialMs, c.restartShare * elapsedMs) : previousMs * c.factor;
    if (status === undefined || !EARLY_STATUSES.has(status))
        pause = Math.min(pause, Math.max(c.initialMs, c.nearDoneShare * elapsedMs));
    else if (BUILD_STATUSES.has(status))
        pause = Math.min(pause, Math.max(c.buildFloorMs, c.buildShare * elapsedMs));
    return Math.round(Math.min(pause, pollIntervalMs));
}
async function waitForRevision(o) {
    const now = o.now ?? Date.now;
    const sleep = o.sleep ?? sleep_sleep;
    const cadence = o.cadence ?? DEFAULT_CADENCE;
    const start = now();
    const p = {
        now,
        cadence,
        start,
        deadline: start + o.timeoutMs,
        timeline: [],
        status: undefined,
        revision: undefined,
        polls: 0,
        errors: 0,
        lastError: undefined,
        lastApiError: undefined,
        unknownSeen: false,
        pause: Math.min(cadence.initialMs, o.pollIntervalMs) / cadence.factor
    };
    for (;;) {
        if (o.signal?.aborted)
            return resultOf(p, 'cancelled');
        p.polls++;
        const step = await pollOnce(o, p);
        if (step.end)
            return resultOf(p, step.end);
        if (now() >= p.deadline)
            return resultOf(p, 'timeout');
        const wait = nextWait(o, p, step.changed, step.retryAfterMs);
        if (wait === undefined)
            return resultOf(p, 'error');
        try {
            await sleep(wait, o.signal);
        }
        catch {
            return resultOf(p, 'cancelled');
        }
    }
}
function resultOf(p, outcome) {
    const { status, revision, timeline, polls, lastError, lastApiError } = p;
    const elapsedMs = p.now() - p.start;
    return { outcome, status, revision, timeline, polls, elapsedMs, lastError, lastApiError };
}
async function pollOnce(o, p) {
    let revision;
    try {
        revision = await o.client.getRevision(o.deploymentId, o.revisionId, {
            deadline: p.deadline + FINAL_POLL_GRACE_MS
        });
    }
    catch (err) {
        return pollFailed(o, p, err);
    }
    p.revision = revision;
    p.errors = 0;
    const changed = revision.status !== p.status;
    if (changed) {
        p.status = revision.status;
        const elapsedMs = p.now() - p.start;
        p.timeline.push({ status: p.status, elapsedMs });
        o.onStatus?.(p.status, elapsedMs);
        if (!KNOWN_STATUSES.has(p.status) && !p.unknownSeen) {
            p.unknownSeen = true;
            o.onUnknownStatus?.(p.status);
        }
    }
    const outcome = (0,vocabulary/* revisionOutcome */.qU)(revision.status);
    return outcome !== 'in_progress' ? { end: outcome } : { changed };
}
function pollFailed(o, p, err) {
    if (o.signal?.aborted)
        return { end: 'cancelled' };
    if (err instanceof AbortedError)
        return { end: p.now() >= p.deadline ? 'timeout' : 'cancelled' };
    p.lastError = err;
    if (err instanceof ApiError)
        p.lastApiError = err;
    const early404 = err instanceof ApiError &&
        err.status === 404 &&
        p.status === undefined &&
        p.now() - p.start < (o.notFoundGraceMs ?? NOT_FOUND_GRACE_MS);
    if (err instanceof ApiError && FINAL_HTTP.has(err.status) && !early404)
        return { end: 'error' };
    // A 404 in the grace period is not a failing service: it does not use up the error budget.
    if (!early404)
        p.errors++;
    o.onPollError?.(err, Math.max(p.errors, 1));
    if (p.errors >= (o.maxConsecutiveErrors ?? 6))
        return { end: 'error' };
    return { changed: false, retryAfterMs: err instanceof ApiError ? err.retryAfterMs : undefined };
}
/** The pause before the next poll; undefined when the server asks to wait past the deadline. */
function nextWait(o, p, changed, retryAfterMs) {
    const elapsed = p.now() - p.start;
    p.pause = nextPause(p.pause, changed, p.status, elapsed, o.pollIntervalMs, p.cadence);
    if (retryAfterMs !== undefined) {
        // Polling again before the server's Retry-After would only be refused again; when that
        // time ends past the deadline, no poll can help any more.
        if (p.now() + retryAfterMs >= p.deadline) {
            p.lastError = new RetryPastDeadlineError(p.lastError, retryAfterMs);
            return undefined;
        }
        p.pause = Math.max(p.pause, retryAfterMs);
    }
    // The last poll lands on the deadline rather than a whole pause after it.
    return Math.max(0, Math.min(p.pause, p.deadline - p.now()));
}
/** The control plane asked to wait past the deadline: no further poll could help. */
class RetryPastDeadlineError extends Error {
    constructor(cause, retryAfterMs) {
        const text = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
        super(`${text} (the control plane asks to wait ${(0,duration/* formatDuration */.a)(retryAfterMs)}, past the deadline)`, { cause });
        this.name = 'RetryPastDeadlineError';
    }
}

;// CONCATENATED MODULE: ./src/deploy/rollback.ts



async function rollBack(client, input, notes) {
    const previous = input.previousActive;
    if (!previous) {
        return {
            kind: 'not-done',
            reason: 'nothing to roll back to: the deployment had no active revision before this run'
        };
    }
    // Read again right before the write: another run may have written or deployed since.
    const now = await client.getDeployment(input.deploymentId);
    const refused = holdBack(now, input.failedRevisionId, previous);
    if (refused)
        return { kind: 'not-done', reason: refused };
    notes.info(`Rolling back: redeploying revision ${previous}, active before this run.`);
    const { notUndone } = input;
    let answer;
    try {
        answer = await writeReconciled(client, now, () => client.redeployRevision(input.deploymentId, previous), true, 'redeploy', notes, input.wait.now);
    }
    catch (err) {
        // A cancel is the run's to report; any other failure is the rollback's, not the verdict's.
        if (input.wait.signal?.aborted)
            throw err;
        const text = err instanceof Error ? err.message.split('\n')[0] : String(err);
        return { kind: 'failed', restoredId: previous, reason: text, notUndone };
    }
    const revisionId = await redeployedRevision(client, answer, now.latest_revision_id, notes);
    if (!revisionId) {
        const reason = `the redeploy was answered, but no new revision appeared (the latest is still ${now.latest_revision_id ?? 'none'})`;
        return { kind: 'unconfirmed', restoredId: previous, reason, notUndone };
    }
    const result = await waitForRevision({
        client,
        deploymentId: input.deploymentId,
        revisionId,
        ...input.wait,
        onStatus: input.onStatus
    });
    notes.info(`Rollback revision ${revisionId}: ${result.status ?? 'no status read'} after ${(0,duration/* formatDuration */.a)(result.elapsedMs)}.`);
    const { status, outcome, timeline } = result;
    return { kind: 'done', revisionId, restoredId: previous, status, outcome, timeline, notUndone };
}
/** Why the rollback must not be made now, or undefined when it is still this run's to make. */
function holdBack(now, failed, previous) {
    if (now.latest_revision_id !== failed) {
        return `revision ${now.latest_revision_id ?? '(none)'} came after this run's revision ${failed} (another run wrote it), so rolling back would undo that`;
    }
    // This run's own revision is active when it was DEPLOYED and then found unhealthy.
    if (now.active_revision_id !== previous && now.active_revision_id !== failed) {
        return `revision ${now.active_revision_id ?? '(none)'} became active after this run started (another run deployed it), so rolling back to ${previous} would undo that`;
    }
    return undefined;
}
/**
 * The revision the redeploy made: the answer's new latest revision or, when the answer still
 * names the revision from before (the redeploy not visible yet, or dropped), one that appears
 * on the deployment shortly after. Undefined when none does.
 */
async function redeployedRevision(client, answer, before, notes) {
    if (answer.latest_revision_id && answer.latest_revision_id !== before)
        return answer.latest_revision_id;
    const late = await awaitNewRevision(client, answer.id, before, notes, 'redeploy');
    return late?.latest_revision_id ?? undefined;
}

;// CONCATENATED MODULE: ./src/deploy/after-failure.ts
// What a run does once its revision ended `*_FAILED`: show why (the log's last lines) and, with
// `on-failure: rollback`, put the previous revision back. Both report into the state; neither
// changes the verdict: the deploy that was asked for did not happen.




async function afterFailure(o, ids, deps) {
    const log = o.failureLogs > 0 ? await showLog(o.failureLogs, ids, deps) : undefined;
    let rollback;
    if (o.onFailure === 'rollback') {
        rollback = await deps.log.group('Roll back', async () => {
            const r = await rollBack(deps.client, {
                deploymentId: ids.deploymentId,
                previousActive: ids.previousActive,
                failedRevisionId: ids.revisionId,
                notUndone: ids.notUndone,
                wait: {
                    timeoutMs: o.timeoutMs,
                    pollIntervalMs: o.pollIntervalMs,
                    cadence: deps.cadence,
                    signal: deps.signal,
                    now: deps.now,
                    sleep: deps.sleep
                },
                onStatus: (status, ms) => deps.log.info(`${status} after ${(0,duration/* formatDuration */.a)(ms)}`)
            }, deps.log);
            if (r.kind === 'not-done')
                deps.log.info(`No rollback: ${r.reason}.`);
            if (r.kind === 'failed')
                deps.log.warning(describeRollback(r), 'Rollback failed');
            if (r.kind === 'unconfirmed')
                deps.log.warning(describeRollback(r), 'Rollback not confirmed');
            if (r.kind === 'done' && r.notUndone.length)
                deps.log.warning(notUndoneSentence(r.notUndone), 'Rollback is partial');
            return r;
        });
    }
    return { log, rollback };
}
async function showLog(lines, ids, deps) {
    const now = deps.now ?? Date.now;
    const result = await readFailureLog(deps.client, ids, ids.status, lines, deps.client.redactor, now() + LOG_BUDGET_MS);
    if (result.kind !== 'log') {
        deps.log.warning(`Could not show the log of revision ${ids.revisionId}: ${result.reason}. The result stands as it is.`, 'Log not available');
        return undefined;
    }
    const { log } = result;
    await printGroup(deps.log, `${capital(log.type)} log of revision ${ids.revisionId} (last ${log.lines.length} lines)`, log.lines);
    return log;
}
async function printGroup(log, name, lines) {
    await log.group(name, async () => {
        for (const line of lines)
            log.info(line);
    });
}
/** What the rollback did, for the error annotation, and what it left as this run set it. */
function describeRollback(r) {
    if (!r)
        return undefined;
    if (r.kind === 'not-done')
        return `Not rolled back: ${r.reason}.`;
    const left = notUndoneSentence(r.notUndone);
    const tail = left ? ` ${left}` : '';
    if (r.kind === 'failed')
        return `The rollback failed: the redeploy of revision ${r.restoredId} was not made (${r.reason}).`;
    if (r.kind === 'unconfirmed')
        return `The rollback could not be confirmed: ${r.reason}; check the deployment on the control plane.${tail}`;
    if (r.outcome === 'deployed')
        return `Rolled back: revision ${r.revisionId} (a redeploy of ${r.restoredId}) is DEPLOYED.${tail}`;
    return `The rollback did not restore service: revision ${r.revisionId} (a redeploy of ${r.restoredId}) ended ${r.status ?? 'without a status'} (${r.outcome}).${tail}`;
}
/** The sentence that says what a redeploy left as this run set it; undefined when nothing. */
function notUndoneSentence(names) {
    if (!names.length)
        return undefined;
    return `The rollback redeploys the old revision only: this run's changes to ${names.join(', ')} stay as this run set them (they belong to the deployment, not to a revision).`;
}
/**
 * What an update changed that a redeploy of an older revision does not put back: the secrets
 * (by name) and the deployment's settings. The revision's own source (ref, config path, image)
 * is what a redeploy restores.
 */
function notUndoneBy(plan) {
    if (plan?.kind !== 'update')
        return [];
    const names = [];
    for (const c of plan.changes) {
        if (c.field.startsWith('source_revision_config.'))
            continue;
        const secret = /^secrets\.(.+)$/.exec(c.field)?.[1];
        if (secret !== undefined) {
            const how = c.to === REMOVED ? 'removed' : c.from === undefined ? 'added' : 'set';
            names.push(`secret ${secret} (${how})`);
        }
        else
            names.push(inputName(c.field));
    }
    return names;
}
/** `source_config.install_command` as the input that sets it: `install-command`. */
function inputName(field) {
    const leaf = field.split('.').at(-1) ?? field;
    return leaf.replace(/_/g, '-');
}
function capital(s) {
    return s.charAt(0).toUpperCase() + s.slice(1);
}

;// CONCATENATED MODULE: ./src/deploy/health-gate.ts




/**
 * Probes `url` + the path until the gate decides, logging each change of answer. Throws a
 * DeployError when the URL may not carry the key (nothing is sent then).
 */
async function healthGate(s, url, deps) {
    const { log } = deps;
    const window = s.windowMs > 0 ? `, then 2xx for ${(0,duration/* formatDuration */.a)(s.windowMs)}` : '';
    return log.group('Health check of the agent server', async () => {
        let last;
        let result;
        try {
            result = await checkHealth({
                url,
                path: s.path,
                apiKey: s.apiKey,
                deadline: s.deadline,
                windowMs: s.windowMs,
                ...(s.intervalMs !== undefined ? { intervalMs: s.intervalMs } : {}),
                redactor: deps.redactor,
                ...(deps.signal ? { signal: deps.signal } : {}),
                ...(deps.now ? { now: deps.now } : {}),
                ...(deps.sleep ? { sleep: deps.sleep } : {}),
                ...(deps.probe ? { transport: deps.probe } : {}),
                onProbe: (n, answer) => {
                    if (n === 1)
                        log.info(`GET ${shown(url, s.path, deps.redactor)}: until a 2xx${window}.`);
                    const text = describeAnswer(answer);
                    // A long wait repeats one answer: it is said once, and again when it changes.
                    if (text !== last)
                        log.info(`Probe ${n}: ${text}`);
                    last = text;
                }
            });
        }
        catch (err) {
            if (!(err instanceof HealthTargetError))
                throw err;
            throw new DeployError(`health-check cannot ask the agent server: ${err.message}. No probe was sent.`, 'Set custom-url to the https address of the agent server, or turn health-check off.', 'Health check refused');
        }
        const took = (0,duration/* formatDuration */.a)(result.elapsedMs);
        if (result.health === 'healthy')
            log.info(`Healthy: ${result.probes} probes in ${took}, each 2xx from the first 2xx on.`);
        if (result.health === 'unavailable')
            log.warning(`Every probe of ${shown(url, s.path, deps.redactor)} answered 404: the agent server's health routes are turned off, so this deploy was not checked. ` +
                'Point health-check at a route the server serves, or turn it off.', 'Health check unavailable');
        return result;
    });
}
/** One answer as the job log shows it: `503 "database unreachable"`, `no answer (…)`. */
function describeAnswer(a) {
    if (a.status === null)
        return `no answer: ${a.excerpt}`;
    return a.excerpt ? `${a.status} "${a.excerpt}"` : `${a.status}`;
}
/** The error of an unhealthy server: it names the last answers, and whether it was rolled back. */
function unhealthyError(result, revisionId, name, rolledBack) {
    const answers = result.answers.map(describeAnswer).join('; ');
    return new DeployError(`Revision ${revisionId} of "${name ?? ''}" is DEPLOYED, but its agent server is unhealthy: ${result.reason ?? 'a probe failed'}. ` +
        `Last answers: ${answers}.` +
        (rolledBack ? ` ${rolledBack}` : ''), 'Read the revision’s deploy log and the server’s own log (a missing secret, a database it cannot reach, a graph that does not load); fix, and push again.', 'Agent server unhealthy');
}
function shown(url, path, redactor) {
    return (0,control_plane_redact/* sanitizeServerText */.c8)(redactor.redact(`${(url ?? '').replace(/\/+$/, '')}${path}`), 300);
}

;// CONCATENATED MODULE: ./src/deploy/after-deployed.ts





async function checkDeployedHealth(o, state, deps, r) {
    if (!o.healthCheck)
        return;
    const now = deps.now ?? Date.now;
    let result;
    try {
        result = await healthGate({
            path: o.healthCheck,
            windowMs: o.healthCheckWindow,
            // poll-interval caps every pause of the run, the probes' too.
            intervalMs: Math.min(DEFAULT_PROBE_INTERVAL_MS, o.pollIntervalMs),
            apiKey: o.apiKey,
            // The timeout bounds the wait for the first 2xx as it bounds the wait for DEPLOYED.
            deadline: now() - r.waitedMs + o.timeoutMs
        }, state.url, {
            log: deps.log,
            redactor: deps.client.redactor,
            ...(deps.signal ? { signal: deps.signal } : {}),
            ...(deps.now ? { now: deps.now } : {}),
            ...(deps.sleep ? { sleep: deps.sleep } : {}),
            ...(deps.probe ? { probe: deps.probe } : {})
        });
    }
    catch (err) {
        state.outcome = 'error';
        throw err;
    }
    if (result.health === 'cancelled') {
        state.outcome = 'cancelled';
        throw new DeployError(`Cancelled during the health check; revision ${r.revisionId} is DEPLOYED and was not checked.`, undefined, 'Deploy cancelled');
    }
    state.health = result.health;
    if (result.health !== 'unhealthy')
        return;
    state.outcome = 'unhealthy';
    const after = await afterFailure(o, {
        deploymentId: r.deploymentId,
        revisionId: r.revisionId,
        status: 'DEPLOYED',
        previousActive: state.previousActive ?? null,
        notUndone: notUndoneBy(state.plan)
    }, deps);
    state.failureLog = after.log;
    state.rollback = after.rollback;
    throw unhealthyError(result, r.revisionId, state.name, describeRollback(after.rollback));
}
/**
 * Before anything is written: a health check whose address is already known (the custom-url
 * input, or the deployment's) and may not carry the key stops the run here.
 */
function refuseHealthTarget(o, current) {
    if (!o.healthCheck)
        return;
    const url = o.customUrl ?? current?.source_config.custom_url;
    if (!url)
        return;
    const target = probeTarget(url, o.healthCheck);
    if ('problem' in target)
        throw new DeployError(`health-check cannot ask the agent server: ${target.problem}. Nothing was written and no probe was sent.`, 'Set custom-url to the https address of the agent server, or turn health-check off.', 'Health check refused');
}

;// CONCATENATED MODULE: ./src/deploy/conclude.ts






async function conclude(o, state, deps, w) {
    const { result } = w;
    state.timeline = result.timeline;
    state.revisionStatus = result.status;
    const sha = result.revision?.source_revision_config?.repo_commit_sha;
    if (sha)
        state.repoCommitSha = sha;
    state.outcome = result.outcome;
    switch (result.outcome) {
        case 'deployed':
            await deployed(state, deps, w);
            return checkDeployedHealth(o, state, deps, { ...w, waitedMs: result.elapsedMs });
        case 'skipped':
            return skipped(state, deps, w);
        case 'failed':
            return failed(o, state, deps, w);
        case 'timeout':
            throw timedOut(o, w);
        case 'cancelled':
            throw new DeployError(`Cancelled while ${result.status ?? 'no status seen'}; revision ${w.revisionId} goes on on the control plane.`, undefined, 'Deploy cancelled');
        case 'error':
            throw await conclude_pollFailed(state, deps, w);
    }
}
async function deployed(state, deps, w) {
    await refresh(deps, state, w.deploymentId);
    deps.log.info(`Revision ${w.revisionId} is DEPLOYED (${(0,duration/* formatDuration */.a)(w.result.elapsedMs)}).`);
    const sha = state.repoCommitSha;
    const expected = state.expectedSha;
    if (sha && expected && !sameCommit(sha, expected)) {
        deps.log.warning(`Revision ${w.revisionId} built commit ${sha}, not ${expected} that triggered this run: ` +
            `${state.ref ?? 'the ref'} moved on before the build started.`, 'Built a different commit');
    }
}
async function skipped(state, deps, w) {
    await refresh(deps, state, w.deploymentId);
    const newer = state.newerRevisionId;
    deps.log.warning(`Revision ${w.revisionId} was SKIPPED: a newer revision${newer ? ` (${newer})` : ''} superseded it, ` +
        'and goes on on the control plane.', 'Superseded by a newer revision');
}
async function failed(o, state, deps, w) {
    const last = w.result.status ?? 'no status seen';
    const after = await afterFailure(o, {
        deploymentId: w.deploymentId,
        revisionId: w.revisionId,
        status: last,
        previousActive: state.previousActive ?? null,
        notUndone: notUndoneBy(state.plan)
    }, deps);
    state.failureLog = after.log;
    state.rollback = after.rollback;
    const why = after.log?.telling ? `: ${after.log.telling.replace(/[.\s]+$/, '')}.` : '.';
    const rolled = describeRollback(after.rollback);
    throw new DeployError(`Revision ${w.revisionId} of "${state.name}" ended ${last} after ${(0,duration/* formatDuration */.a)(w.result.elapsedMs)}${why}` +
        (rolled ? ` ${rolled}` : ''), last === 'BUILD_FAILED'
        ? `The build failed: ${after.log ? 'its log is above and in the job summary' : 'read the build log of the revision on the control plane'}; fix, and push again.`
        : last === 'DEPLOY_FAILED'
            ? 'The deploy failed after a good build: read the revision’s deploy log and the deployment’s settings (resource-spec, secrets).'
            : 'The control plane could not create the revision: check the source settings and the deployment on the control plane.', `Revision ${last}`);
}
function timedOut(o, w) {
    const { result } = w;
    return new DeployError((result.status
        ? `Timed out: still ${result.status} after ${(0,duration/* formatDuration */.a)(o.timeoutMs)}; revision ${w.revisionId} goes on on the control plane.`
        : `Timed out after ${(0,duration/* formatDuration */.a)(o.timeoutMs)} before any status of revision ${w.revisionId} was read; it may go on on the control plane.`) +
        (result.lastError ? ` Last poll error: ${firstLine(result.lastError)}` : '') +
        (result.lastApiError && result.lastApiError !== result.lastError
            ? ` Last answer: ${firstLine(result.lastApiError)}`
            : ''), 'Raise timeout (a first deploy also provisions a database and can take 15 minutes or more), or use wait: false.', 'Deploy timed out');
}
/**
 * Polling failed for good. A revision that cannot be found because its deployment was deleted
 * meanwhile (by another run or a person) is reported as that, not as a wrong id.
 */
async function conclude_pollFailed(state, deps, w) {
    const { result } = w;
    const deleted = await deletedMeanwhile(deps.client, w.deploymentId, result.lastError);
    if (deleted) {
        state.deploymentStatus = deleted === 'gone' ? undefined : deleted;
        return new DeployError(`Deployment "${state.name}" (${w.deploymentId}) was deleted while this run waited for revision ${w.revisionId} (${deleted === 'gone' ? 'reads answer 404' : deleted}); nothing is deployed.`, 'Another run or a person deleted it: deploy again to create it anew, once that was intended.', 'Deployment deleted');
    }
    const seen = result.status ? `last status ${result.status}` : 'before any status was read';
    return new DeployError(`Polling revision ${w.revisionId} failed (${seen}): ${firstLine(result.lastError ?? 'unknown error')}`, `${hintOf(result.lastError) ?? 'Hint: the control plane could not be read reliably.'} The revision may still go on on the control plane.`, 'Polling failed');
}
/** After a 404 on the revision: whether the deployment itself is gone or going. */
async function deletedMeanwhile(client, id, err) {
    if (!(err instanceof ApiError && err.status === 404))
        return undefined;
    try {
        const d = await client.getDeployment(id);
        return d.status === 'AWAITING_DELETE' ? 'AWAITING_DELETE' : undefined;
    }
    catch (again) {
        return again instanceof ApiError && again.status === 404 ? 'gone' : undefined;
    }
}
/** One read at the end: the deployment's status, and the newer revision when ours was skipped. */
async function refresh(deps, state, id) {
    try {
        const d = await deps.client.getDeployment(id);
        observe(state, d, deps.log);
        if (d.latest_revision_id && d.latest_revision_id !== state.revisionId)
            state.newerRevisionId = d.latest_revision_id;
    }
    catch {
        // The revision's own status is what decides the run; this read only adds detail.
    }
}
/** The first line of an error's message: the hint that follows is said once, at the end. */
function firstLine(err) {
    const text = err instanceof Error ? err.message : String(err);
    return text.split('\n')[0] ?? text;
}
function hintOf(err) {
    if (err instanceof ApiError)
        return err.hint;
    const lines = (err instanceof Error ? err.message : '').split('\n');
    return lines.length > 1 ? lines.slice(1).join(' ') : undefined;
}
function sameCommit(a, b) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x.startsWith(y) || y.startsWith(x);
}

;// CONCATENATED MODULE: ./src/deploy/resolve-repository.ts

async function resolveRepository(client, integrationId, repository) {
    const entries = await client.listRepositories(integrationId);
    const wanted = repository.toLowerCase();
    const found = entries.find(e => `${e.owner}/${e.name}`.toLowerCase() === wanted);
    if (found)
        return found;
    const close = closeNames(wanted, entries);
    throw new DeployError(`Repository ${repository} is not among the ${entries.length} repositories of forge integration ${integrationId}.`, (close.length ? `Close names: ${close.join(', ')}. ` : '') +
        'Check the repository input, or give the integration access to the repository on the hosting service.', 'Repository not found');
}
/** Up to five `owner/name` that share the name, or are a couple of edits away. */
function closeNames(wanted, entries) {
    const [, wantedName = wanted] = wanted.split('/');
    const scored = [];
    for (const e of entries) {
        const full = `${e.owner}/${e.name}`;
        const lower = full.toLowerCase();
        const name = e.name.toLowerCase();
        let score = Infinity;
        if (name === wantedName)
            score = 0;
        else if (name.includes(wantedName) || wantedName.includes(name))
            score = 1;
        else if (Math.abs(lower.length - wanted.length) <= 2)
            score = 1 + editDistance(lower, wanted, 2);
        if (score <= 3)
            scored.push({ full, score });
    }
    return scored
        .sort((a, b) => a.score - b.score || a.full.localeCompare(b.full))
        .slice(0, 5)
        .map(s => s.full);
}
/** Levenshtein distance, giving up (returning max + 1) once it exceeds max. */
function editDistance(a, b, max) {
    let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        let best = i;
        for (let j = 1; j <= b.length; j++) {
            const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
            cur.push(v);
            best = Math.min(best, v);
        }
        if (best > max)
            return max + 1;
        prev = cur;
    }
    return prev[b.length];
}

;// CONCATENATED MODULE: ./src/deploy/target.ts





const BEING_DELETED = 'AWAITING_DELETE';
async function findTarget(o, state, deps) {
    const { client, log } = deps;
    const found = await log.group('Find the deployment', async () => {
        const target = o.target;
        const d = target.kind === 'id'
            ? await client.getDeployment(target.deploymentId)
            : await findDeploymentByName(client, target.name);
        if (!d) {
            log.info(`No deployment is named "${o.name}".`);
            return undefined;
        }
        if (target.kind === 'id' && o.name !== undefined && d.name !== o.name) {
            throw new DeployError(`Deployment ${target.deploymentId} is named "${d.name}", not "${o.name}".`, 'Set name and deployment-id to the same deployment, or only one of them.', 'Name and deployment-id disagree');
        }
        observe(state, d, log);
        log.info(`Found deployment "${d.name}" (${d.id}), status ${d.status}.`);
        return d;
    });
    if (found?.status !== BEING_DELETED)
        return found;
    return awaitDeletion(o, state, deps, found);
}
/** The deployment is being deleted: wait until it is gone, so that the run can create it anew. */
async function awaitDeletion(o, state, deps, d) {
    const { log } = deps;
    if (o.target.kind === 'id') {
        throw new DeployError(`Deployment ${d.id} ("${d.name}") is being deleted (${BEING_DELETED}): it cannot be updated, and a deployment named by id is never created anew.`, 'Deploy by name (without deployment-id) to create it again once it is gone.', 'Deployment being deleted');
    }
    if (o.dryRun) {
        log.info(`Deployment "${d.name}" (${d.id}) is being deleted (${BEING_DELETED}): a run would wait until it is gone, then create it anew.`);
        return undefined;
    }
    const result = await log.group(`Wait until deployment "${d.name}" is gone`, async () => {
        log.info(`Deployment "${d.name}" (${d.id}) is being deleted (${BEING_DELETED}), so it cannot be updated: ` +
            `waiting until it is gone (at most the timeout, ${(0,duration/* formatDuration */.a)(o.timeoutMs)}), then creating it anew.`);
        const r = await waitUntilGone(deps.client, d.id, o, deps);
        if (r.kind === 'gone')
            log.info(goneLine(r.elapsedMs));
        return r;
    });
    if (result.kind === 'timeout') {
        state.outcome = 'timeout';
        throw new DeployError(`Timed out: deployment "${d.name}" (${d.id}) was still ${result.status} after ${(0,duration/* formatDuration */.a)(o.timeoutMs)}; nothing was deployed.`, 'Re-run the job once the deletion has finished, or raise timeout.', 'Deployment being deleted');
    }
    state.deploymentId = undefined;
    state.deploymentStatus = undefined;
    return undefined;
}

;// CONCATENATED MODULE: ./src/deploy/write.ts



async function writePlan(o, state, deps, plan, current) {
    let written;
    /** The latest revision before this run's update: what the update must replace. */
    let before = current?.latest_revision_id ?? null;
    state.previousActive = current?.active_revision_id ?? null;
    if (plan.kind === 'create') {
        const body = plan.body;
        const result = await writing(state, deps, 'create', () => create(body, deps));
        observe(state, result.deployment, deps.log);
        if (result.kind === 'created') {
            state.created = true;
            written = result.deployment;
        }
        else {
            // Another run created it first: this run's write becomes an update of theirs.
            plan = planUpdate(o, result.deployment);
            state.plan = plan;
            before = result.deployment.latest_revision_id;
            state.previousActive = result.deployment.active_revision_id;
            noteRepository(state, deps, plan);
            written = await update(state, deps, plan, result.deployment);
        }
    }
    else {
        written = await update(state, deps, plan, current);
    }
    observe(state, written, deps.log);
    if (plan.kind === 'update' && !plan.newRevision)
        return { kind: 'no-revision' };
    if (plan.kind === 'update' && written.latest_revision_id === before) {
        const late = await awaitNewRevision(deps.client, written.id, before, deps.log);
        if (!late)
            return { kind: 'revision-missing', deployment: written, before };
        written = late;
        observe(state, written, deps.log);
    }
    const revisionId = await revisionOf(deps.client, written);
    state.revisionId = revisionId;
    deps.log.info(`Revision ${revisionId}.`);
    return { kind: 'revision', deployment: written, revisionId };
}
function create(body, deps) {
    const { client, log } = deps;
    return log.group('Create the deployment', async () => {
        const r = await createOrAdopt(client, body, log, deps.now);
        if (r.kind === 'created')
            log.info(`Created deployment "${r.deployment.name}" (${r.deployment.id}).`);
        return r;
    });
}
async function update(state, deps, p, d) {
    if (p.kind !== 'update')
        throw new Error('update needs an update plan');
    const { client, log } = deps;
    return log.group('Update the deployment', async () => {
        if (p.removedSecrets.length) {
            log.warning(`This update removes ${p.removedSecrets.length === 1 ? 'secret' : 'secrets'} ${p.removedSecrets.join(', ')} from deployment "${p.name}": ` +
                'the secrets input replaces the whole set. List every secret the deployment needs in secrets to keep it.', 'Secrets removed');
        }
        const out = await writing(state, deps, 'update', () => patchReconciled(client, d, p.body, p.newRevision, log, deps.now));
        log.info(`Updated deployment "${out.name}" (${out.id}).`);
        return out;
    });
}
/** The workflow's repository is not the deployment's: say so, and compare no commit. */
function noteRepository(state, deps, p) {
    if (p.kind !== 'update' || !p.otherRepository)
        return;
    state.expectedSha = undefined;
    deps.log.warning(`Deployment "${p.name}" builds ${p.otherRepository.deployment}, not this workflow's repository ${p.otherRepository.workflow}: ` +
        'it deploys its own repository at the ref, so the commit built is not compared with this run’s. Set repository to silence this.', 'Another repository');
}

;// CONCATENATED MODULE: ./src/deploy/flow.ts
// The deploy, step by step: find the target (target.ts), plan, write (write.ts), wait, and
// conclude from how the wait ended (conclude.ts, which also handles a failure). Each step fills
// the DeployState, so that the outputs and the summary can say what was known when it stopped.











async function deploy(o, state, deps) {
    const current = await findTarget(o, state, deps);
    const plan = await deps.log.group('Plan', () => makePlan(o, deps, current));
    state.plan = plan;
    noteRepository(state, deps, plan);
    refuseHealthTarget(o, current);
    if (o.dryRun) {
        state.outcome = 'dry-run';
        deps.log.info('Dry run: nothing was written.');
        return;
    }
    const written = await writePlan(o, state, deps, plan, current);
    if (written.kind === 'no-revision') {
        state.outcome = 'no-revision';
        deps.log.info('The change needs no new revision: nothing to wait for.');
        return;
    }
    if (written.kind === 'revision-missing') {
        state.outcome = 'revision-missing';
        deps.log.warning(`The control plane made no new revision for this update of "${written.deployment.name}": its latest revision is still ${written.before ?? 'none'}. ` +
            'Nothing was deployed by this run; re-run the job, and check the deployment on the control plane if it happens again.', 'No new revision');
        return;
    }
    if (!o.wait) {
        state.outcome = 'accepted';
        deps.log.info('wait is false: the revision goes on on the control plane.');
        return;
    }
    await conclude(o, state, deps, await waitFor(o, deps, written.deployment.id, written.revisionId));
}
async function makePlan(o, deps, current) {
    let p;
    if (current)
        p = planUpdate(o, current);
    else {
        // A deployment named by id is read, never created: not finding it was an error before.
        if (o.target.kind !== 'name')
            throw new DeployError(`Deployment ${o.target.deploymentId} was not found.`);
        const name = o.target.name;
        if (!o.create) {
            throw new DeployError(`No deployment is named "${name}" and create is false.`, 'Set create: true to create it, or check name, tenant-id and base-url.', 'Deployment not found');
        }
        const repo = o.source === 'codehost' && o.integrationId && o.repository
            ? await resolveRepository(deps.client, o.integrationId, o.repository)
            : undefined;
        if (repo) {
            deps.log.info(`Repository ${o.repository} -> ${(0,control_plane_redact/* sanitizeServerText */.c8)(repo.url, 300)} (default branch ${(0,control_plane_redact/* sanitizeServerText */.c8)(repo.default_branch, 200)})`);
        }
        p = planCreate(o, name, repo);
    }
    for (const line of describePlan(p))
        deps.log.info(line);
    return p;
}
function waitFor(o, deps, deploymentId, revisionId) {
    const { log } = deps;
    return log.group(`Wait for revision ${revisionId}`, async () => {
        const result = await waitForRevision({
            client: deps.client,
            deploymentId,
            revisionId,
            timeoutMs: o.timeoutMs,
            pollIntervalMs: o.pollIntervalMs,
            cadence: deps.cadence,
            signal: deps.signal,
            now: deps.now,
            sleep: deps.sleep,
            onStatus: (status, ms) => log.info(`${status} after ${(0,duration/* formatDuration */.a)(ms)}`),
            onUnknownStatus: status => log.warning(`Revision ${revisionId} reports status ${status}, which the control plane does not document: ` +
                'taken as still in progress until DEPLOYED, a *_FAILED status or the timeout.', 'Unknown revision status'),
            // The hint of a cause is said once, with the final error; each poll gets one line.
            onPollError: (err, n) => log.info(`Poll ${n} in a row failed, still waiting: ${firstLine(err)}`)
        });
        return { result, deploymentId, revisionId };
    });
}

// EXTERNAL MODULE: ./src/inputs/documents.ts
var documents = __nccwpck_require__(5847);
// EXTERNAL MODULE: ./src/inputs/names.ts
var names = __nccwpck_require__(5585);
;// CONCATENATED MODULE: ./src/inputs/problems.ts
// How a check reports a problem: one collector, so that every bad input is reported at once.
// A check is a plain function `(value, fail) => result`. `fail(message)` records a problem at that
// input and returns `undefined`, so `return fail(...)` stops early while a check that goes on
// reports the next problem too. Whether an input failed is the collector's to say, not the
// returned value's: a failed input counts as failed whatever its check returned, and its value is
// `undefined`, so nothing downstream can mistake it for a real one.

/** Size caps, in bytes of UTF-8. */
const MAX_INPUT_BYTES = 64 * 1024;
const MAX_DOCUMENT_BYTES = 1024 * 1024;
const DOCUMENTS = new Set(names/* DOCUMENT_INPUTS */.aw);
function sizeText(bytes) {
    return bytes >= 1024 * 1024
        ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
        : `${Math.ceil(bytes / 1024)} KiB`;
}
/** Every problem found, in order, and the inputs they were found at. */
class InputProblems {
    #list = [];
    #failed = new Set();
    add(input, message) {
        this.#list.push({ input, message });
        this.#failed.add(input);
        return undefined;
    }
    /**
     * One input through its check: its size capped, trimmed, `''` when not set. `undefined` when
     * the check reported any problem.
     */
    check(input, value, check) {
        const cap = DOCUMENTS.has(input) ? MAX_DOCUMENT_BYTES : MAX_INPUT_BYTES;
        const bytes = Buffer.byteLength(value, 'utf8');
        if (bytes > cap) {
            return this.add(input, `\`${input}\` is ${sizeText(bytes)}; at most ${sizeText(cap)} is accepted`);
        }
        const before = this.#list.length;
        const result = check(value.trim(), message => this.add(input, message));
        return this.#list.length > before ? undefined : result;
    }
    /** The inputs with a problem so far. */
    failed() {
        return new Set(this.#failed);
    }
    get list() {
        return this.#list;
    }
}
/** All bad inputs in one message: the first line counts the inputs, then one line per problem. */
function renderProblems(problems) {
    const inputs = new Set(problems.map(p => p.input)).size;
    const head = inputs === 1 ? 'One input is not valid:' : `${inputs} inputs are not valid:`;
    return [head, ...problems.map(p => `- ${p.input}: ${p.message}`)].join('\n');
}

// EXTERNAL MODULE: ./src/inputs/text.ts
var inputs_text = __nccwpck_require__(4862);
;// CONCATENATED MODULE: ./src/inputs/masking.ts
// The values to mask in the job log before anything else is logged.





/**
 * Words a run prints on its own (statuses, booleans, log levels, branch and environment names):
 * a secret whose value is one of them would be masked wherever the word appears, turning the log
 * and the summary into `Revision status ***`, and hides nothing worth hiding. Compared without case.
 */
const COMMON_WORDS = new Set([
    ...vocabulary/* DEPLOYMENT_STATUSES */.PB,
    ...vocabulary/* REVISION_STATUSES */.X_,
    ...vocabulary/* DEPLOYMENT_TYPES */._o,
    ...vocabulary/* SOURCES */.Hl,
    ...['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'none', 'enabled', 'disabled'],
    ...['trace', 'debug', 'info', 'notice', 'warn', 'warning', 'error', 'fatal', 'critical'],
    ...['main', 'master', 'develop', 'development', 'dev', 'prod', 'production', 'staging'],
    ...['stage', 'test', 'testing', 'preview', 'local', 'deploy', 'delete', 'default']
].map(w => w.toLowerCase()));
/** Whether a secret's value is a common word (see COMMON_WORDS), not worth masking. */
function isCommonWord(value) {
    return COMMON_WORDS.has(value.trim().toLowerCase());
}
/** Names of the secrets whose values are common words, left unmasked (warned once by the run). */
function commonWordSecretNames(secrets) {
    return secrets
        .filter(s => s.value.trim().length >= control_plane_redact/* MIN_SECRET_LENGTH */.vb && isCommonWord(s.value))
        .map(s => s.name);
}
/** A value and, when it spans lines, each of its lines: the runner masks line by line. */
function withLines(value, into) {
    if (value.trim() === '')
        return;
    into.add(value);
    if (value.trim() !== value)
        into.add(value.trim());
    if (!/[\r\n]/.test(value))
        return;
    for (const line of (0,inputs_text/* lines */.M)(value)) {
        const t = line.trim();
        if (t.length >= control_plane_redact/* MIN_SECRET_LENGTH */.vb)
            into.add(t);
    }
}
/** A value and its JSON-escaped form, as it appears in the raw input text. */
function withJsonForms(value, into) {
    withLines(value, into);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value)
        withLines(escaped, into);
}
/**
 * The values of a JSON object that does not parse: every string after a `:`, to line end (a
 * single-quoted one also without its quotes).
 */
function scavengeJsonValues(text, into) {
    for (const line of (0,inputs_text/* lines */.M)(text)) {
        for (const m of line.matchAll(/:\s*("(?:[^"\\]|\\.)*(?:"|$)|[^\s",}{][^,}]*)/g)) {
            const token = (m[1] ?? '').trim();
            if (!token.startsWith('"')) {
                withLines(token, into);
                if (token.startsWith("'"))
                    withLines(token.slice(1).replace(/'$/, ''), into);
                continue;
            }
            const closed = token.length > 1 && token.endsWith('"');
            const body = closed ? token.slice(1, -1) : token.slice(1);
            withLines(body, into);
            try {
                const decoded = JSON.parse(`"${body}"`);
                if (typeof decoded === 'string')
                    withLines(decoded, into);
            }
            catch {
                // the escaped form is masked already
            }
        }
    }
}
/**
 * The values of `secrets` in its object form, read by the same parser as the check (so that
 * `{A: 'value'}` is masked as it is accepted); `undefined` when it does not parse or is over the
 * size the check accepts.
 */
function parsedObject(text) {
    if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES)
        return undefined;
    const parsed = (0,documents/* parseDocumentInput */.Zr)('secrets', text, () => undefined);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
}
/**
 * Best effort, for masking before anything else is logged: the API key and every value found in
 * the `secrets` input (each `NAME=VALUE` line's value, a line that is not `NAME=VALUE` as a whole,
 * every object value, also when the object does not parse), the `github-token`, plus a password
 * in `base-url`, `custom-url` or `environment-url`. Multi-line values come whole and line by line.
 * Longest first; values shorter than MIN_SECRET_LENGTH are left out (see there).
 */
function secretValuesToMask(raw) {
    const found = new Set();
    withLines(raw['api-key'] ?? '', found);
    withLines(raw['github-token'] ?? '', found);
    // The key and the token are masked whatever they are; a secret's value is not when it is a
    // common word (see COMMON_WORDS).
    const keys = [...found];
    const secrets = raw.secrets ?? '';
    if (secrets.trim().startsWith('{')) {
        const parsed = parsedObject(secrets.trim());
        if (parsed !== undefined) {
            for (const value of Object.values(parsed)) {
                if (typeof value === 'string')
                    withJsonForms(value, found);
                else if (value !== null && value !== undefined)
                    withLines(JSON.stringify(value), found);
            }
        }
        else {
            scavengeJsonValues(secrets, found);
        }
    }
    else {
        for (const line of (0,inputs_text/* lines */.M)(secrets)) {
            const t = line.trim();
            if (t === '' || t.startsWith('#'))
                continue;
            const eq = line.indexOf('=');
            withLines(eq < 0 ? t : line.slice(eq + 1), found);
        }
    }
    for (const input of ['base-url', 'custom-url', 'environment-url']) {
        try {
            const url = new URL((raw[input] ?? '').trim());
            if (url.password !== '') {
                withLines(url.password, found);
                withLines(decodeURIComponent(url.password), found);
            }
        }
        catch {
            // not a URL: nothing to find
        }
    }
    return [...found]
        .filter(v => v.length >= control_plane_redact/* MIN_SECRET_LENGTH */.vb && (keys.includes(v) || !isCommonWord(v)))
        .sort((a, b) => b.length - a.length);
}

// EXTERNAL MODULE: ./src/event.ts
var src_event = __nccwpck_require__(807);
// EXTERNAL MODULE: ./src/inputs/health.ts
var inputs_health = __nccwpck_require__(6543);
// EXTERNAL MODULE: ./src/inputs/table.ts + 2 modules
var table = __nccwpck_require__(6377);
;// CONCATENATED MODULE: ./src/inputs/cross-field.ts
// How the inputs fit together: what a source needs and allows, what a command allows, and the
// checks that need two inputs. Only inputs that passed their own checks take part: an input that
// failed is neither given (nothing is said about what it does not fit) nor absent (it is not
// "required" again: its own problem already says what is wrong).






/** Inputs without a default that only a deploy uses: given to a delete, they are an error. */
const DEPLOY_ONLY = names/* INPUT_NAMES */.Qh.filter(name => table/* INPUTS */.mc[name].applies === 'deploy' && (0,names/* defaultOf */.HA)(name) === '');
/** Inputs only a delete uses (switches that are off by default). */
const DELETE_ONLY = names/* INPUT_NAMES */.Qh.filter(name => table/* INPUTS */.mc[name].applies === 'delete');
/** GitHub's refs of a pull request: its merge commit and its head, neither a branch. */
const PULL_REQUEST_REF = /^refs\/pull\/\d+\/(merge|head)$/;
/**
 * How the inputs fit together. `failed`: the inputs that failed their own checks (their value in
 * `f` is `undefined`).
 */
function crossFieldProblems(f, failed, event) {
    const problems = [];
    const add = (input, message) => problems.push([input, message]);
    /** Set, and passed its own check. */
    const given = (input) => f[input] !== undefined;
    /** Not set at all (not merely failed). */
    const absent = (input) => f[input] === undefined && !failed.has(input);
    // Target. A `deployment-id` that failed its check still means a target by id.
    const byId = !absent('deployment-id');
    if (!byId && absent('name')) {
        add('name', '`name` is required: the deployment name to find or create (or set `deployment-id` to update a deployment by id)');
    }
    // A mistyped command: which rules apply is unknown, so its own problem is the one to fix.
    if (failed.has('command'))
        return problems;
    // GitHub deployments: `environment` turns them on and needs a token to write them.
    if (given('environment') && absent('github-token')) {
        add('github-token', '`github-token` is required with `environment` to create a GitHub deployment: pass `${{ github.token }}` and grant the job `deployments: write`');
    }
    if (given('environment-url') && absent('environment')) {
        add('environment-url', '`environment-url` applies only with `environment` (the GitHub environment whose deployment shows that URL)');
    }
    // The health gate asks the agent server after DEPLOYED: only a deploy that waits gets there.
    const health = { healthPath: f['health-check'], wait: f.wait, command: f.command };
    for (const [input, message] of (0,inputs_health/* healthProblems */.b6)(health))
        add(input, message);
    // Deleting takes a target and nothing of what a deploy writes.
    if (f.command === 'delete') {
        for (const input of DEPLOY_ONLY) {
            if (given(input))
                add(input, `\`${input}\` applies only to deploying, not to \`command: delete\``);
        }
        if (f['on-failure'] === 'rollback')
            add('on-failure', '`on-failure: rollback` applies only to deploying, not to `command: delete`');
        return problems;
    }
    for (const input of DELETE_ONLY) {
        if (given(input) && f[input] !== false)
            add(input, `\`${input}\` applies only with \`command: delete\``);
    }
    if (f['pr-comment'] === true && absent('github-token')) {
        add('github-token', '`github-token` is required with `pr-comment`: pass `${{ github.token }}` and grant the job `pull-requests: write`');
    }
    if (typeof f.ref === 'string' && PULL_REQUEST_REF.test(f.ref)) {
        const head = event.pullRequestNumber !== undefined && event.ref !== undefined
            ? `\`${event.ref}\``
            : '`${{ github.head_ref }}`';
        add('ref', "`ref` is a pull request's ref (`refs/pull/<number>/merge` or `/head`), which the integration " +
            `cannot build: deploy the pull request's head branch, ${head} (on a pull request event, ` +
            'leaving `ref` empty deploys it)');
    }
    // A fork's head branch is not in the repository the integration builds.
    if (event.forkHead !== undefined && (absent('repository') || absent('ref'))) {
        add('ref', (0,src_event/* forkPullRequestMessage */.YK)(event.forkHead, event.repository));
    }
    const source = f.source;
    const revisionSource = f['revision-source'];
    if (source === undefined)
        return problems;
    // Creating is only decided at run time; a name target with `create: true` may create.
    const mayCreate = !byId && typeof f.name === 'string' && f.create === true;
    const usesCodehost = source === 'codehost' || (revisionSource === 'codehost' && source !== 'external_docker');
    // Inputs that belong to one kind of source.
    const onlyFor = (input, allowed, where) => {
        if (given(input) && !allowed)
            add(input, `\`${input}\` applies only to ${where}, not to source \`${source}\``);
    };
    onlyFor('integration-id', source === 'codehost', 'source `codehost`');
    onlyFor('build-on-push', source === 'codehost', 'source `codehost`');
    onlyFor('deployment-type', source === 'codehost', 'source `codehost`');
    onlyFor('repository', usesCodehost, 'source `codehost` (or `revision-source: codehost`)');
    onlyFor('ref', usesCodehost, 'source `codehost` (or `revision-source: codehost`)');
    onlyFor('listener-id', source === 'external_docker', 'source `external_docker` (self-hosted)');
    onlyFor('k8s-namespace', source === 'external_docker', 'source `external_docker` (self-hosted)');
    onlyFor('secret-references', source === 'external_docker', 'source `external_docker` (self-hosted)');
    onlyFor('image-uri', source === 'external_docker' ||
        source === 'internal_docker' ||
        revisionSource === 'internal_docker', 'sources `external_docker` and `internal_docker` (or `revision-source: internal_docker`)');
    onlyFor('revision-source', source !== 'external_docker', 'cloud sources');
    // What each source needs.
    const missing = (input, why) => {
        if (absent(input))
            add(input, `\`${input}\` is required ${why}`);
    };
    if (source === 'codehost' && mayCreate) {
        const why = 'to create a `codehost` deployment (or set `create: false` to only update)';
        missing('integration-id', why);
        if (absent('repository') && event.repository === undefined) {
            add('repository', `\`repository\` is required ${why}: no workflow repository is known`);
        }
        if (absent('ref') && event.ref === undefined) {
            add('ref', `\`ref\` is required ${why}: the triggering event gives no branch or tag`);
        }
    }
    if (source === 'external_docker' && mayCreate) {
        const why = 'to create an `external_docker` deployment (or set `create: false` to only update)';
        missing('image-uri', why);
        missing('listener-id', why);
        missing('k8s-namespace', why);
    }
    if (source === 'internal_docker')
        missing('image-uri', 'with source `internal_docker`: the image to deploy');
    else if (revisionSource === 'internal_docker') {
        missing('image-uri', 'with `revision-source: internal_docker`: the image to deploy');
    }
    // build_on_push must be false when repo_ref is a tag.
    // A `ref` that failed its check stands for no ref, not for the event's.
    const ref = absent('ref') && usesCodehost ? event.ref : f.ref;
    if (f['build-on-push'] === true && ref?.startsWith('refs/tags/')) {
        add('build-on-push', '`build-on-push` cannot be `true` when the ref is a tag (`refs/tags/...`): a tag does not move on pushes');
    }
    // Reserved secret names: hosted deployments reserve a few more.
    const reserved = source === 'external_docker'
        ? vocabulary/* RESERVED_SECRET_NAMES */.di
        : [...vocabulary/* RESERVED_SECRET_NAMES */.di, ...vocabulary/* RESERVED_SECRET_NAMES_HOSTED */.vx];
    if (f.secrets !== undefined) {
        for (const { name } of f.secrets) {
            if (reserved.includes(name)) {
                add('secrets', `\`secrets\`: ${name} is reserved by the platform${vocabulary/* RESERVED_SECRET_NAMES_HOSTED */.vx.includes(name) ? ' on hosted deployments' : ''}; use another name`);
            }
        }
        if (f['secret-references'] !== undefined) {
            const names = new Set(f.secrets.map(s => s.name));
            for (const { name } of f['secret-references']) {
                if (names.has(name)) {
                    add('secret-references', `\`secret-references\`: ${name} is also set in \`secrets\``);
                }
            }
        }
    }
    const pollInterval = f['poll-interval'];
    const timeout = f.timeout;
    if (pollInterval !== undefined && timeout !== undefined && pollInterval > timeout) {
        add('poll-interval', `\`poll-interval\` (${(0,duration/* formatDuration */.a)(pollInterval)}) must not be longer than \`timeout\` (${(0,duration/* formatDuration */.a)(timeout)})`);
    }
    return problems;
}

;// CONCATENATED MODULE: ./src/inputs/options.ts
/** Inputs whose Options are derived (see the interface) rather than taken as they are. */
const DERIVED_INPUTS = ['deployment-id', 'timeout', 'poll-interval', 'api-dialect'];

;// CONCATENATED MODULE: ./src/inputs/index.ts
// The action's inputs -> one typed, validated `Options` object. Pure: no I/O, no `@actions/core`
// (the entry layer masks and logs).
//
// One problem collector (problems.ts) takes every problem, so that a user fixes all their inputs
// in one round, never just the first: each input's own check runs, then the checks of how the
// inputs fit together, and `Options` are built only when nothing was found. No message ever
// repeats an input's value: a value may be the API key or a secret pasted into the wrong input.
// What may appear is the input's name, a secret's name, a line number or a key of a YAML/JSON
// document.
//
// `table.ts` gives each input its check, which lives in `fields.ts` (single-line inputs),
// `secrets.ts` or `documents.ts` (YAML/JSON inputs); `cross-field.ts` checks how they fit
// together; `masking.ts` finds the values to mask. A check sees action.yml's default when the
// input is empty, as on the runner, so every caller (the action, the CLI, tests) gets the same.












/** The runner's environment variable for an input: `INPUT_` + upper case, hyphens kept. */
function inputEnvName(name) {
    return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}
/**
 * Every input through `input` (the door's reader: `core.getInput`, the command line), trimmed
 * at both ends like `core.getInput` (inner lines of multi-line values are left as they are).
 */
function readRawInputs(input) {
    const raw = {};
    for (const name of names/* INPUT_NAMES */.Qh)
        raw[name] = input(name).trim();
    return raw;
}
// ---------------------------------------------------------------------------------------------
// Checks and Options
/** Each input through its own check; a failed input's value is `undefined`. */
function checkEach(raw, problems) {
    const fields = {};
    for (const name of names/* INPUT_NAMES */.Qh) {
        const check = table/* INPUTS */.mc[name].check;
        fields[name] = problems.check(name, raw[name], check);
    }
    return fields;
}
/** `integration-id` -> `integrationId`: the key in Options of an input taken as it is. */
function optionKey(name) {
    return name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
}
/**
 * The Options of inputs that passed every check: each input under its camel-case key, then what
 * is derived (the target, the event's defaults, durations in ms, the dialect).
 */
function toOptions(f, event) {
    const plain = {};
    for (const name of names/* INPUT_NAMES */.Qh) {
        if (!DERIVED_INPUTS.includes(name))
            plain[optionKey(name)] = f[name];
    }
    const byId = f['deployment-id'] !== undefined;
    const usesCodehost = f.source === 'codehost' || f['revision-source'] === 'codehost';
    const ref = f.ref ?? (usesCodehost ? event.ref : undefined);
    const timeoutMs = f.timeout;
    const auto = f['api-dialect'] === 'auto' ? (0,dialect/* autoDialect */.mk)(f['base-url']) : undefined;
    const derived = {
        target: byId
            ? { kind: 'id', deploymentId: f['deployment-id'] }
            : { kind: 'name', name: f.name },
        repository: f.repository ?? (usesCodehost ? event.repository : undefined),
        repositoryExplicit: f.repository !== undefined,
        ref,
        // The event's commit is expected only when the event's ref is the one deployed.
        expectedSha: usesCodehost && ref !== undefined && ref === event.ref ? event.expectedSha : undefined,
        timeoutMs,
        pollIntervalMs: f['poll-interval'] ?? Math.min(table/* DEFAULT_POLL_INTERVAL_MS */.P, timeoutMs),
        apiDialect: auto?.dialect ?? f['api-dialect'],
        apiDialectReason: auto?.reason
    };
    return { ...plain, ...derived };
}
/**
 * The validated Options, or every problem found. `raw` misses no input it does not need (missing
 * ones count as not set); `event` gives the defaults of `ref`, the expected commit and
 * `repository`. No problem message contains the API key or a secret value.
 */
function parseInputs(raw, event) {
    const record = {};
    for (const name of names/* INPUT_NAMES */.Qh) {
        const value = raw[name];
        const text = typeof value === 'string' && !(0,names/* isUnevaluatedDefault */.Wi)(name, value) ? value : '';
        record[name] = text.trim() === '' ? (0,names/* defaultOf */.HA)(name) : text;
    }
    const found = new InputProblems();
    const fields = checkEach(record, found);
    // After failed inputs too: every problem is reported at once.
    for (const [input, message] of crossFieldProblems(fields, found.failed(), event)) {
        found.add(input, message);
    }
    if (found.list.length === 0) {
        return { ok: true, options: toOptions(fields, event), notices: notices(record, fields) };
    }
    // Messages never quote values; redacting what might be sensitive anyway is the second lock.
    const redactor = new control_plane_redact/* Redactor */.pO(secretValuesToMask(record));
    const problems = found.list.map(p => ({ input: p.input, message: redactor.redact(p.message) }));
    return { ok: false, problems };
}
function notices(raw, f) {
    const out = [];
    if (f.ref !== undefined && raw.ref.trim() !== f.ref) {
        out.push(`\`ref\`: ${raw.ref.trim()} is deployed as the branch name ${f.ref}, the form the control plane takes.`);
    }
    return out;
}
/** Names of the secrets whose values are too short to be masked (MIN_SECRET_LENGTH). */
function unmaskedSecretNames(o) {
    return (o.secrets ?? []).filter(s => s.value.trim().length < control_plane_redact/* MIN_SECRET_LENGTH */.vb).map(s => s.name);
}

// EXTERNAL MODULE: ./src/inputs/action-yml.ts
var action_yml = __nccwpck_require__(1068);
;// CONCATENATED MODULE: ./src/report.ts




/** The step outputs, by name; undefined ones are not written. */
function outputsOf(state) {
    const rollback = state.rollback?.kind === 'done' ? state.rollback : undefined;
    return {
        'deployment-id': state.deploymentId,
        'revision-id': state.revisionId,
        'revision-status': state.revisionStatus,
        'deployment-status': state.deploymentStatus,
        // A create cut off in flight may have landed: unknown, so not claimed either way.
        created: state.writing === 'create' ? undefined : String(state.created),
        url: state.url,
        'repo-commit-sha': state.repoCommitSha,
        // A delete cut off in flight may have landed: unknown, so not claimed either way.
        deleted: state.writing === 'delete' ? undefined : String(state.deleted === true),
        'rollback-revision-id': rollback?.revisionId,
        'rollback-status': rollback?.status,
        health: state.health
    };
}
/** Every output declared in action.yml, '' where it has no value; before a run, only 'false's. */
function allOutputs(state, extra) {
    const known = state
        ? { ...outputsOf(state), ...extra }
        : { created: 'false', deleted: 'false', ...extra };
    const all = {};
    for (const name of Object.keys(action_yml/* ACTION_OUTPUTS */.c)) {
        all[name] = known[name] ?? '';
    }
    return all;
}
const HEADLINE = {
    deployed: '✅ Deployed',
    accepted: '📨 Accepted (not waited for)',
    'no-revision': '✅ Updated (no new revision needed)',
    'revision-missing': '⚠️ Updated, but the control plane made no new revision',
    deleted: '🗑️ Deleted',
    absent: '✅ Nothing to delete',
    'dry-run': '📝 Dry run: nothing written',
    skipped: '⏭️ Superseded by a newer revision',
    failed: '❌ Revision failed',
    unhealthy: '❌ Agent server unhealthy',
    timeout: '⏱️ Timed out',
    cancelled: '🛑 Cancelled',
    error: '❌ Failed'
};
/** The job summary as markdown. */
function renderSummary(state, facts) {
    const headline = state.outcome ? HEADLINE[state.outcome] : facts.error ? '❌ Failed' : '…';
    const title = `${headline}: ${state.name ? `\`${state.name}\`` : 'deployment'}`;
    const rows = [];
    const add = (k, v) => {
        if (v !== undefined && v !== '')
            rows.push([k, v]);
    };
    add('Deployment', state.deploymentId
        ? `\`${state.deploymentId}\`${state.created ? ' (created by this run)' : ''}`
        : undefined);
    add('Revision', state.revisionId && `\`${state.revisionId}\``);
    add('Revision status', state.revisionStatus && `\`${state.revisionStatus}\``);
    add('Newer revision', state.newerRevisionId && `\`${state.newerRevisionId}\``);
    add('Deployment status', state.deploymentStatus && `\`${state.deploymentStatus}\``);
    add('Ref', state.ref && `\`${state.ref}\``);
    if (state.repoCommitSha || state.expectedSha) {
        const built = state.repoCommitSha ? `\`${state.repoCommitSha}\`` : 'not reported';
        const expected = state.expectedSha ? `\`${state.expectedSha}\`` : 'not known';
        add('Commit built / expected', `${built} / ${expected}`);
    }
    add('URL', state.url);
    add('Health', state.health);
    add('Duration', (0,duration/* formatDuration */.a)(facts.durationMs));
    add('Requests', String(facts.requests));
    const out = [`### ${title}`, '', '| | |', '|---|---|'];
    for (const [k, v] of rows)
        out.push(`| ${k} | ${cell(v)} |`);
    if (facts.error)
        out.push('', '**What failed**', '', '```', facts.error, '```');
    if (state.plan && (state.outcome === 'dry-run' || state.plan.changes.length)) {
        out.push('', `**${state.outcome === 'dry-run' ? 'Plan' : 'Changes'}**`, '', '```');
        out.push(...describePlan(state.plan));
        out.push('```');
    }
    timeline(out, 'Status timeline', state.timeline);
    const log = state.failureLog;
    if (log) {
        out.push('', '<details><summary>', `${log.type === 'build' ? 'Build' : 'Deploy'} log, last ${log.lines.length} lines`, '</summary>', '');
        out.push(fenced(log.lines), '', '</details>');
    }
    const rb = state.rollback;
    if (rb?.kind === 'done') {
        out.push('', `**Rollback**: revision \`${rb.revisionId}\` (a redeploy of \`${rb.restoredId}\`) ended \`${rb.status ?? 'without a status'}\``);
        timeline(out, 'Rollback timeline', rb.timeline);
    }
    else if (rb)
        out.push('', `**Rollback**: ${rb.kind === 'failed' ? 'failed' : rb.kind === 'unconfirmed' ? 'not confirmed' : 'not done'}: ${rb.reason}.`);
    return out.join('\n') + '\n';
}
function timeline(out, title, entries) {
    if (!entries.length)
        return;
    out.push('', `**${title}**`, '', '| Status | After |', '|---|---|');
    for (const t of entries)
        out.push(`| \`${t.status}\` | ${(0,duration/* formatDuration */.a)(t.elapsedMs)} |`);
}
function cell(v) {
    return v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
/** The job summary as it is written: nothing masks a summary, so it is redacted here. */
function summaryText(state, facts, redactor) {
    return redactor.redact(renderSummary(state, facts));
}

;// CONCATENATED MODULE: ./src/run.ts
// The run, whichever door it came through: raw inputs in through the port, masks first, every
// input checked before any request, then the deploy or the delete, the GitHub side when the door
// has one, and every output, the summary and the verdict out through the port. It never asks
// where it runs: no @actions/core, no environment variables, no signal handlers (the doors own
// those).










/** Time allowed for everything but the wait: look-ups, writes and their retries. */
const SETUP_BUDGET_MS = 10 * 60_000;
async function run(port, clock = {}) {
    const now = clock.now ?? Date.now;
    const started = now();
    const raw = readRawInputs(name => port.input(name));
    await (0,documents/* loadDocumentParser */.fq)(raw);
    const redactor = new control_plane_redact/* Redactor */.pO(secretValuesToMask(raw));
    for (const value of redactor.values)
        port.mask(value);
    const parsed = parseInputs(raw, port.event);
    if (!parsed.ok) {
        port.error(redactor.redact(renderProblems(parsed.problems)), 'Invalid inputs');
        return { exitCode: 2, outputs: writeOutputs(port, allOutputs(undefined, {})) };
    }
    const o = parsed.options;
    for (const line of parsed.notices)
        port.notice(redactor.redact(line));
    warnUnmasked(port, o);
    const client = new ControlPlaneClient({
        baseUrl: o.baseUrl,
        apiKey: o.apiKey,
        tenantId: o.tenantId,
        // The wait has its own deadline; this bounds the look-ups and writes around it too, so that a
        // run never takes more than twice its timeout, nor more than ten minutes beyond it.
        deadline: started + o.timeoutMs + Math.min(o.timeoutMs, SETUP_BUDGET_MS),
        signal: port.signal,
        secrets: redactor.values,
        dialect: o.apiDialect,
        onRateLimited: once(waitMs => port.info(`The control plane is rate limiting this key: pausing ${(0,duration/* formatDuration */.a)(waitMs)} as it asks (said once; later pauses are not logged).`)),
        debug: port.debug,
        ...clock
    });
    port.info(`API dialect: ${o.apiDialect}${o.apiDialectReason ? ` (auto: ${o.apiDialectReason})` : ''}.`);
    const state = newState(o);
    const log = flowLog(port, redactor);
    // With `environment`: a GitHub deployment mirrors the outcome; best effort, never the verdict.
    const github = await gitHubDeployment(port, o, { redactor, log });
    let error;
    let title = o.command === 'delete' ? 'Delete failed' : 'Deploy failed';
    try {
        const deps = { client, log, signal: port.signal, ...clock };
        if (o.command === 'delete')
            await deleteDeployment(o, state, deps);
        else
            await deploy(o, state, deps);
    }
    catch (err) {
        if (port.signal.aborted && !(err instanceof DeployError)) {
            state.outcome = 'cancelled';
            error = cancelledMessage(state);
            title = 'Deploy cancelled';
        }
        else {
            error = run_describeError(err);
            if (err instanceof DeployError)
                title = err.title;
            else if (err instanceof ControlPlaneError)
                title = `Control plane: ${err.operation} failed`;
            state.outcome ??= 'error';
        }
        error = redactor.redact(error);
    }
    finally {
        client.close();
    }
    await githubSide(port, o, state, { github, error, redactor, log });
    const outputs = writeOutputs(port, allOutputs(state, { 'github-deployment-id': github ? String(github.id) : undefined }));
    const facts = { durationMs: now() - started, requests: client.requestCount, error };
    await writeSummary(port, summaryText(state, facts, redactor), redactor);
    if (error !== undefined) {
        port.error(error, title);
        return { exitCode: state.outcome === 'cancelled' ? 130 : 1, outputs };
    }
    if (state.outcome === 'deployed') {
        const healthy = state.health === 'healthy' ? ', and its agent server answers healthy' : '';
        port.info(`Done: revision ${state.revisionId} is DEPLOYED${healthy}.`);
    }
    return { exitCode: 0, outputs };
}
/** Secrets left unmasked: too short to mask, or common words that masking would blot out. */
function warnUnmasked(port, o) {
    const names = (list) => `${list.length === 1 ? 'Secret' : 'Secrets'} ${list.join(', ')}: ${list.length === 1 ? 'its value is' : 'their values are'}`;
    const short = unmaskedSecretNames(o);
    if (short.length) {
        port.warning(`${names(short)} shorter than ${control_plane_redact/* MIN_SECRET_LENGTH */.vb} characters, too short to be masked ` +
            '(masking them would hide those characters everywhere in the job log). The action never prints secret values.', 'Secret too short to mask');
    }
    const common = commonWordSecretNames(o.secrets ?? []);
    if (common.length) {
        port.warning(`${names(common)} a common word (a status, a boolean, a log level, a branch or environment name), ` +
            'not masked: masking it would hide that word everywhere in the job log and the summary. ' +
            'The action never prints secret values; if the value is confidential, choose one that is not a common word.', 'Secret not masked: a common word');
    }
}
/** The GitHub deployment's final status and the pull request comment: bounded, best effort. */
async function githubSide(port, o, state, { github, error, redactor, log }) {
    const cancelling = port.signal.aborted;
    if (o.prComment && !port.github) {
        port.info('pr-comment: not running on GitHub Actions; no pull request comment is posted.');
    }
    // Loaded only for a run that posts one (a chunk of its own in the bundle).
    const comment = o.prComment && port.github ? await __nccwpck_require__.e(/* import() */ 809).then(__nccwpck_require__.bind(__nccwpck_require__, 809)) : undefined;
    // Together, so that a cancel's short exit covers both.
    await Promise.all([
        github?.finish(state, error, cancelling),
        comment && port.github
            ? comment.postPrComment({
                name: state.name ?? o.name ?? state.deploymentId ?? 'deployment',
                command: o.command,
                outcome: commentOutcome(state),
                deploymentId: state.deploymentId,
                revisionId: state.revisionId,
                revisionStatus: state.revisionStatus,
                url: state.url,
                commitSha: state.repoCommitSha ?? state.expectedSha,
                error,
                logExcerpt: state.failureLog?.lines.join('\n'),
                deleted: state.deleted,
                tracingProjectDeleted: state.deleted === true && o.deleteTracingProject
            }, {
                token: o.githubToken,
                env: port.github.env,
                pullRequestNumber: port.event.pullRequestNumber,
                redactor,
                log,
                cancelling,
                dryRun: o.dryRun
            })
            : undefined
    ]);
}
/**
 * The GitHub deployment of a run with `environment` on a door that has a GitHub side; its module
 * is loaded only then (a chunk of its own in the bundle).
 */
async function gitHubDeployment(port, o, deps) {
    if (!port.github || o.environment === undefined)
        return undefined;
    const { startGitHubDeployment } = await __nccwpck_require__.e(/* import() */ 808).then(__nccwpck_require__.bind(__nccwpck_require__, 9808));
    return startGitHubDeployment(o, port.github.env, deps);
}
/** Each output through the port, as it is (structured values are not redacted). */
function writeOutputs(port, outputs) {
    for (const [name, value] of Object.entries(outputs))
        port.setOutput(name, value);
    return outputs;
}
/** The flow's outcome in the words of the pull-request comment. */
function commentOutcome(state) {
    switch (state.outcome) {
        case undefined:
        case 'deleted':
        case 'absent':
            return undefined;
        case 'revision-missing':
            return 'no-revision';
        default:
            return state.outcome;
    }
}
/** `fn` on its first call only. */
function once(fn) {
    let done = false;
    return (...args) => {
        if (done)
            return;
        done = true;
        fn(...args);
    };
}
/** What is known at a cancel, and what is not: a write in flight may have landed. */
function cancelledMessage(state) {
    const name = state.name ? `"${state.name}"` : 'the deployment';
    if (state.writing === 'create') {
        return (`Cancelled while the create of deployment ${name} was in flight: whether it was applied is unknown. ` +
            'A re-run finds the deployment by its name and updates it, or creates it.');
    }
    if (state.writing === 'delete') {
        return `Cancelled while the delete of deployment ${name} was in flight: whether it was applied is unknown. A re-run deletes it, or finds it gone.`;
    }
    if (state.writing === 'update') {
        return (`Cancelled while the update of deployment ${name} was in flight: whether it made a new revision is unknown. ` +
            'A re-run applies the update again.');
    }
    const revision = state.revisionId
        ? `; revision ${state.revisionId} goes on on the control plane`
        : '';
    return `Cancelled${revision}.`;
}
function run_describeError(err) {
    if (err instanceof DeployError || err instanceof ControlPlaneError)
        return err.message;
    // Our own bug: still one readable line, never a stack trace in the job's error.
    const text = err instanceof Error ? err.message : String(err);
    return `Unexpected error: ${(0,control_plane_redact/* sanitizeServerText */.c8)(text, 1000)}`;
}
/** The flow's log: through the port, every line redacted. */
function flowLog(port, redactor) {
    return {
        info: line => port.info(redactor.redact(line)),
        warning: (line, title) => port.warning(redactor.redact(line), title),
        notice: (line, title) => port.notice(redactor.redact(line), title),
        group: (name, fn) => port.group(name, fn)
    };
}
/** The job summary, where the door keeps one; a failure to write it is only a warning. */
async function writeSummary(port, text, redactor) {
    if (!port.summary)
        return;
    try {
        await port.summary(text);
    }
    catch (err) {
        port.warning(`Could not write the job summary: ${redactor.redact(String(err))}`);
    }
}


/***/ }),

/***/ 1013:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  x: () => (/* binding */ VERSION)
});

;// CONCATENATED MODULE: ./package.json
const package_namespaceObject = {"rE":"1.0.0"};
;// CONCATENATED MODULE: ./src/version.ts
// The version comes from package.json: the bundler inlines it, so releases keep one source of truth.

const VERSION = package_namespaceObject.rE;


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 8500:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 9783:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   s: () => (/* binding */ getProxyUrl)
/* harmony export */ });
/* unused harmony export checkBypass */
function getProxyUrl(reqUrl) {
    const usingSsl = reqUrl.protocol === 'https:';
    if (checkBypass(reqUrl)) {
        return undefined;
    }
    const proxyVar = (() => {
        if (usingSsl) {
            return process.env['https_proxy'] || process.env['HTTPS_PROXY'];
        }
        else {
            return process.env['http_proxy'] || process.env['HTTP_PROXY'];
        }
    })();
    if (proxyVar) {
        try {
            return new DecodedURL(proxyVar);
        }
        catch (_a) {
            if (!proxyVar.startsWith('http://') && !proxyVar.startsWith('https://'))
                return new DecodedURL(`http://${proxyVar}`);
        }
    }
    else {
        return undefined;
    }
}
function checkBypass(reqUrl) {
    if (!reqUrl.hostname) {
        return false;
    }
    const reqHost = reqUrl.hostname;
    if (isLoopbackAddress(reqHost)) {
        return true;
    }
    const noProxy = process.env['no_proxy'] || process.env['NO_PROXY'] || '';
    if (!noProxy) {
        return false;
    }
    // Determine the request port
    let reqPort;
    if (reqUrl.port) {
        reqPort = Number(reqUrl.port);
    }
    else if (reqUrl.protocol === 'http:') {
        reqPort = 80;
    }
    else if (reqUrl.protocol === 'https:') {
        reqPort = 443;
    }
    // Format the request hostname and hostname with port
    const upperReqHosts = [reqUrl.hostname.toUpperCase()];
    if (typeof reqPort === 'number') {
        upperReqHosts.push(`${upperReqHosts[0]}:${reqPort}`);
    }
    // Compare request host against noproxy
    for (const upperNoProxyItem of noProxy
        .split(',')
        .map(x => x.trim().toUpperCase())
        .filter(x => x)) {
        if (upperNoProxyItem === '*' ||
            upperReqHosts.some(x => x === upperNoProxyItem ||
                x.endsWith(`.${upperNoProxyItem}`) ||
                (upperNoProxyItem.startsWith('.') &&
                    x.endsWith(`${upperNoProxyItem}`)))) {
            return true;
        }
    }
    return false;
}
function isLoopbackAddress(host) {
    const hostLower = host.toLowerCase();
    return (hostLower === 'localhost' ||
        hostLower.startsWith('127.') ||
        hostLower.startsWith('[::1]') ||
        hostLower.startsWith('[0:0:0:0:0:0:0:1]'));
}
class DecodedURL extends URL {
    constructor(url, base) {
        super(url, base);
        this._decodedUsername = decodeURIComponent(super.username);
        this._decodedPassword = decodeURIComponent(super.password);
    }
    get username() {
        return this._decodedUsername;
    }
    get password() {
        return this._decodedPassword;
    }
}
//# sourceMappingURL=proxy.js.map

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(486);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
