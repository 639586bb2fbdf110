export const id = 106;
export const ids = [106];
export const modules = {

/***/ 1106:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  DEFAULT_CONCURRENCY: () => (/* binding */ DEFAULT_CONCURRENCY),
  MAX_CONCURRENCY: () => (/* binding */ MAX_CONCURRENCY),
  SCORED_HERE: () => (/* binding */ SCORED_HERE),
  evaluationModel: () => (/* binding */ evaluationModel),
  parseEvaluation: () => (/* binding */ parseEvaluation),
  readEvaluation: () => (/* binding */ readEvaluation)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/inputs/nesting.ts
var nesting = __webpack_require__(4831);
// EXTERNAL MODULE: ./src/inputs/smoke-cases.ts
var smoke_cases = __webpack_require__(8416);
// EXTERNAL MODULE: ./src/evaluate/path.ts
var path = __webpack_require__(9088);
;// CONCATENATED MODULE: ./src/evaluate/examples.ts
// The examples an evaluation runs: a LangSmith dataset's, or a local JSON Lines file's, one
// `{"id"?, "inputs": {...}, "outputs"?: {...}}` per line (`id` defaults to the line number).
/** At most this many examples in one evaluation. */
const MAX_EXAMPLES = 1000;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** One line's example, or what is wrong with it. */
function exampleOf(line, n) {
    let v;
    try {
        v = JSON.parse(line);
    }
    catch {
        return 'is not JSON';
    }
    if (!isObject(v))
        return 'must be an object {"id"?, "inputs": {...}, "outputs"?: {...}}';
    const extra = Object.keys(v).filter(k => !['id', 'inputs', 'outputs'].includes(k));
    if (extra.length > 0)
        return `has a key that is none of id, inputs, outputs`;
    if (!isObject(v.inputs))
        return '`inputs` must be an object (the run\u2019s input)';
    if (v.outputs !== undefined && !isObject(v.outputs))
        return '`outputs` must be an object';
    if (v.id !== undefined &&
        !(typeof v.id === 'string' && v.id.trim() !== '') &&
        typeof v.id !== 'number')
        return '`id` must be a non-empty text or a number';
    return {
        id: v.id === undefined ? String(n) : String(v.id),
        inputs: v.inputs,
        ...(v.outputs === undefined ? {} : { outputs: v.outputs })
    };
}
/** The examples of a JSON Lines text, or every problem (each with its line). */
function parseExamples(text, file, evaluators) {
    const problems = [];
    const examples = [];
    const ids = new Map();
    const referencing = evaluators.filter(e => e.reference !== undefined).map(e => e.key);
    text.split(/\r?\n/).forEach((line, i) => {
        if (line.trim() === '')
            return;
        const at = `examples (${file}), line ${i + 1}`;
        const e = exampleOf(line, i + 1);
        if (typeof e === 'string')
            return void problems.push(`${at} ${e}`);
        const first = ids.get(e.id);
        if (first !== undefined)
            return void problems.push(`${at} has the id "${e.id}" of line ${first}`);
        ids.set(e.id, i + 1);
        if (referencing.length > 0 && e.outputs === undefined)
            problems.push(`${at} has no \`outputs\`, which ${referencing.join(', ')} read (reference)`);
        examples.push(e);
    });
    if (problems.length === 0 && examples.length === 0)
        problems.push(`examples (${file}) holds no example`);
    if (examples.length > MAX_EXAMPLES)
        problems.push(`examples (${file}) has ${examples.length} examples: at most ${MAX_EXAMPLES}`);
    return problems.length > 0 ? { problems } : { examples };
}

;// CONCATENATED MODULE: ./src/evaluate/file.ts
// The evaluation file (`evaluate`): YAML or JSON, checked whole by its zod model before any
// request, every problem at once with its line. Local examples (JSON Lines) are read and checked
// here too; a LangSmith dataset is only named (it is read after the health gate).








const SCORED_HERE = ['equals', 'contains', 'matches', 'latency'];
const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 32;
const file_text = schemas/* string */.YjP().trim().min(1);
const pathText = schemas/* string */.YjP()
    .refine(v => (0,path/* parsePath */.R)(v) !== undefined, 'must be a path into the output such as messages[-1].content');
const file_duration = schemas/* union */.KCZ([schemas/* number */.aig().positive(), schemas/* string */.YjP()])
    .refine(v => typeof v === 'number' || ((0,duration/* parseDuration */.E9)(v) ?? 0) > 0, 'must be a duration such as 10s or 2m, or a number of seconds');
const evaluatorModel = schemas/* object */.Ikc({
    key: file_text,
    type: schemas/* enum */.k5n([...SCORED_HERE, 'langsmith']),
    path: pathText.optional(),
    value: schemas/* unknown */.L5J().optional(),
    reference: pathText.optional(),
    pass: schemas/* number */.aig().min(0).max(1).optional()
})
    .strict();
const thresholdModel = schemas/* object */.Ikc({
    mean: schemas/* number */.aig().min(0).max(1).optional(),
    'pass-rate': schemas/* number */.aig().min(0).max(1).optional()
})
    .strict()
    .refine(t => t.mean !== undefined || t['pass-rate'] !== undefined, 'needs mean or pass-rate');
const count = schemas/* number */.aig().int().min(0);
const evaluationModel = schemas/* object */.Ikc({
    dataset: file_text.optional(),
    examples: file_text.optional(),
    assistant: file_text.optional(),
    evaluators: schemas/* array */.YOg(evaluatorModel).min(1),
    thresholds: schemas/* record */.g1P(schemas/* string */.YjP(), thresholdModel).optional(),
    baseline: schemas/* object */.Ikc({ deployment: file_text, 'max-regressions': count.optional() })
        .strict()
        .optional(),
    'max-errors': count.optional(),
    concurrency: schemas/* number */.aig().int().min(1).max(MAX_CONCURRENCY).optional()
})
    .strict();
/** The file's text as YAML, or its syntax problems (each with its line). */
function parseYaml(source, at) {
    if ((0,nesting/* nestingMayExceed */.w)(source, 64))
        return { problems: ['is nested too deeply'] };
    const doc = (0,dist.parseDocument)(source, { uniqueKeys: true, prettyErrors: false });
    const errors = doc.errors.map(e => `${at(e.pos[0])}: ${e.code === 'DUPLICATE_KEY' ? 'a key set twice' : 'not valid YAML or JSON'}`);
    return errors.length > 0 ? { problems: errors } : { doc };
}
/** `line L` of a place in the file, for each problem. */
function placer(source) {
    const lines = new dist.LineCounter();
    (0,dist.parseDocument)(source, { lineCounter: lines });
    return (offset) => `line ${lines.linePos(offset).line}`;
}
/** Where a zod issue's path is in the document: its node's line, else the top's. */
function lineOf(doc, path, at) {
    for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true);
        const offset = n === 0 ? (doc.contents?.range?.[0] ?? 0) : node?.range?.[0];
        if (offset !== undefined)
            return at(offset);
    }
    return at(0);
}
const shownPath = (path) => path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
/** The zod issues in words: `line 4: evaluators[0].type must be one of ...`. */
function issueTexts(error, doc, at) {
    return error.issues.map(issue => {
        const where = lineOf(doc, issue.path, at);
        const name = issue.path.length > 0 ? `${shownPath(issue.path)} ` : '';
        const what = issue.code === 'unrecognized_keys'
            ? `has a key it does not know (${issue.keys.map(k => JSON.stringify(k)).join(', ')})`
            : issue.code === 'invalid_value' && 'values' in issue
                ? `must be one of ${issue.values.map(String).join(', ')}`
                : /received undefined$/.test(issue.message)
                    ? 'is required'
                    : issue.message.replace(/^Invalid input: /, '');
        return `${where}: ${name}${what}`;
    });
}
/** What the model cannot say: how the keys fit together. Each problem names its line. */
function ruleProblems(raw, doc, at) {
    const out = [];
    const say = (path, what) => out.push(`${lineOf(doc, path, at)}: ${what}`);
    if ((raw.dataset === undefined) === (raw.examples === undefined))
        say([], 'needs `dataset` (a LangSmith dataset) or `examples` (a JSON Lines file), one of them');
    const keys = new Map();
    raw.evaluators.forEach((e, i) => {
        const first = keys.get(e.key);
        if (first !== undefined)
            say(['evaluators', i, 'key'], `evaluators[${i}].key "${e.key}" is that of evaluators[${first}]; each needs its own`);
        else
            keys.set(e.key, i);
        const problem = evaluatorProblem(e, raw);
        if (problem)
            say(['evaluators', i], `evaluators[${i}] (${e.key}) ${problem}`);
    });
    for (const key of Object.keys(raw.thresholds ?? {}))
        if (!keys.has(key))
            say(['thresholds', key], `thresholds.${key} names no evaluator (the keys are ${[...keys.keys()].join(', ')})`);
    if (raw.baseline && raw.dataset === undefined)
        say(['baseline'], 'baseline needs a LangSmith `dataset`: the baseline is an experiment of it');
    return out;
}
function evaluatorProblem(e, raw) {
    const given = (k) => e[k] !== undefined;
    if (e.type === 'langsmith') {
        if (raw.dataset === undefined)
            return "is type langsmith, which needs a LangSmith `dataset`: its feedback comes from the dataset's evaluators";
        return given('path') || given('value') || given('reference')
            ? 'is type langsmith: it takes no path, value or reference'
            : undefined;
    }
    if (e.type === 'latency') {
        if (given('reference') || given('path'))
            return 'is type latency: it takes only `value` (the longest a run may take)';
        return file_duration.safeParse(e.value).success
            ? undefined
            : 'needs `value`: the longest a run may take, such as 30s';
    }
    if (given('value') === given('reference'))
        return "needs `value` or `reference: <path>` (into the example's outputs), one of them";
    if (e.type === 'contains' && given('value') && typeof e.value !== 'string')
        return 'is type contains: its `value` must be a text';
    if (e.type === 'matches' && given('value') && !isPattern(e.value))
        return 'is type matches: its `value` must be a regular expression';
    return undefined;
}
const isPattern = (v) => {
    if (typeof v !== 'string')
        return false;
    try {
        new RegExp(v, 'u');
        return true;
    }
    catch {
        return false;
    }
};
const latencyOf = (v) => typeof v === 'number' ? v * 1000 : (0,duration/* parseDuration */.E9)(String(v));
function toEvaluator(e) {
    return {
        key: e.key,
        type: e.type,
        ...(e.path === undefined ? {} : { path: (0,path/* parsePath */.R)(e.path) }),
        ...(e.type === 'latency'
            ? { latencyMs: latencyOf(e.value) }
            : 'value' in e && e.value !== undefined
                ? { value: e.value }
                : {}),
        ...(e.reference === undefined ? {} : { reference: (0,path/* parsePath */.R)(e.reference) }),
        pass: e.pass ?? 1
    };
}
function toEvaluation(raw, file, digest, examples) {
    const thresholds = new Map(Object.entries(raw.thresholds ?? {}).map(([k, t]) => [
        k,
        {
            ...(t.mean === undefined ? {} : { mean: t.mean }),
            ...(t['pass-rate'] === undefined ? {} : { passRate: t['pass-rate'] })
        }
    ]));
    return {
        source: raw.dataset !== undefined
            ? { kind: 'dataset', dataset: raw.dataset }
            : { kind: 'examples', path: raw.examples, examples: examples },
        ...(raw.assistant === undefined ? {} : { assistant: raw.assistant }),
        evaluators: raw.evaluators.map(toEvaluator),
        thresholds,
        ...(raw.baseline
            ? {
                baseline: {
                    deployment: raw.baseline.deployment,
                    maxRegressions: raw.baseline['max-regressions'] ?? 0
                }
            }
            : {}),
        maxErrors: raw['max-errors'] ?? 0,
        concurrency: raw.concurrency ?? DEFAULT_CONCURRENCY,
        digest,
        file
    };
}
/** The evaluation of a file's text; `examplesText` reads a local examples file when it names one. */
async function parseEvaluation(source, file, examplesText) {
    const at = placer(source);
    const parsed = parseYaml(source, at);
    if ('problems' in parsed)
        return parsed;
    const { doc } = parsed;
    const checked = evaluationModel.safeParse(doc.toJS({ maxAliasCount: 100 }));
    if (!checked.success)
        return { problems: issueTexts(checked.error, doc, at) };
    const problems = ruleProblems(checked.data, doc, at);
    let examples;
    if (checked.data.examples !== undefined && problems.length === 0) {
        const path = checked.data.examples;
        const read = await examplesText(path);
        const ex = 'why' in read
            ? { problems: [`examples (${path}) could not be read: ${read.why}`] }
            : parseExamples(read.text, path, checked.data.evaluators);
        if ('problems' in ex)
            problems.push(...ex.problems);
        else
            examples = ex.examples;
    }
    if (problems.length > 0)
        return { problems };
    const digest = `sha256:${(0,external_node_crypto_.createHash)('sha256').update(source).digest('hex')}`;
    return { evaluation: toEvaluation(checked.data, file, digest, examples) };
}
/** Reads the `evaluate` file and its examples inside the workspace; its problems prefixed by `label`. */
async function readEvaluation(workspace, file, label) {
    const read = await (0,smoke_cases/* readInside */.xO)(workspace, file);
    const where = `\`${label}\` (${file})`;
    if ('why' in read)
        return {
            problems: [
                `${where} could not be read: ${read.why}; expected a YAML evaluation file inside the workspace`
            ]
        };
    const parsed = await parseEvaluation(read.text, file, path => (0,smoke_cases/* readInside */.xO)(workspace, path));
    return 'problems' in parsed ? { problems: parsed.problems.map(p => `${where}, ${p}`) } : parsed;
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


/***/ }),

/***/ 4831:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   w: () => (/* binding */ nestingMayExceed)
/* harmony export */ });
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4862);
// A linear guard against deeply nested YAML/JSON, run before the parser (document-parser.ts).

/**
 * Whether a YAML/JSON text's nesting may exceed `limit`: the parser recurses, and a megabyte of
 * `[[[[...` takes it seconds and gigabytes. It over-estimates a little (an exact check follows),
 * and what it misses the parser still stops (RESOURCE_EXHAUSTION).
 */
function nestingMayExceed(text, limit) {
    const indents = [];
    let flow = 0;
    let quote;
    let blockScalarParent;
    for (const line of (0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .lines */ .M)(text)) {
        let p = 0;
        let depth = indents.length;
        if (quote === undefined && flow === 0) {
            while (line[p] === ' ')
                p++;
            const rest = line.slice(p);
            if (rest.trim() === '' || rest.startsWith('#'))
                continue;
            if (blockScalarParent !== undefined) {
                if (p > blockScalarParent)
                    continue;
                blockScalarParent = undefined;
            }
            while (indents.length > 0 && (indents.at(-1) ?? 0) >= p)
                indents.pop();
            indents.push(p);
            depth = indents.length;
            // Compact nested sequences on one line: `- - - x`.
            while (line[p] === '-' && (p + 1 === line.length || line[p + 1] === ' ')) {
                depth++;
                p++;
                while (line[p] === ' ')
                    p++;
            }
            if (depth > limit)
                return true;
            if (/(^|[\s:-])[|>][-+0-9]*\s*(#.*)?$/.test(line)) {
                blockScalarParent = indents.at(-1);
            }
        }
        for (; p < line.length; p++) {
            const ch = line[p];
            if (quote === '"') {
                if (ch === '\\')
                    p++;
                else if (ch === '"')
                    quote = undefined;
                continue;
            }
            if (quote === "'") {
                if (ch === "'") {
                    if (line[p + 1] === "'")
                        p++;
                    else
                        quote = undefined;
                }
                continue;
            }
            const prev = p === 0 ? ' ' : line[p - 1];
            if (ch === '#' && (prev === ' ' || prev === '\t'))
                break;
            if ((ch === '"' || ch === "'") && ' \t[{,:-?'.includes(prev ?? ' ')) {
                quote = ch;
            }
            else if (ch === '[' || ch === '{') {
                flow++;
                if (flow + depth > limit)
                    return true;
            }
            else if ((ch === ']' || ch === '}') && flow > 0) {
                flow--;
            }
        }
    }
    return false;
}


/***/ })

};
