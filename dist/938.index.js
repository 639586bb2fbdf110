export const id = 938;
export const ids = [938];
export const modules = {

/***/ 9938:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   MAX_DOCUMENT_DEPTH: () => (/* binding */ MAX_DOCUMENT_DEPTH),
/* harmony export */   MAX_YAML_ALIASES: () => (/* binding */ MAX_YAML_ALIASES),
/* harmony export */   itemPlaces: () => (/* binding */ itemPlaces),
/* harmony export */   parseDocumentInput: () => (/* binding */ parseDocumentInput),
/* harmony export */   parseResourceSpec: () => (/* binding */ parseResourceSpec),
/* harmony export */   parseSecretReferences: () => (/* binding */ parseSecretReferences)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(2857);
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8815);
/* harmony import */ var _control_plane_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8072);
/* harmony import */ var _interface_names_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5767);
/* harmony import */ var _nesting_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4831);
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(4862);
// The one parser of the YAML/JSON document inputs (limits on nesting, aliases and size, duplicate
// keys refused), so every one is read, limited and masked alike; then their schema, unknown keys
// refused. Loaded only when one is set (documents.ts), given the client's zod model.






/** Deepest nesting of a YAML/JSON input (the top-level object or list is depth 1). */
const MAX_DOCUMENT_DEPTH = 32;
/** Aliases a YAML input may expand: a few are handy, thousands are an attack. */
const MAX_YAML_ALIASES = 100;
/** Depth of nested objects and lists, without recursion; stops counting past `limit`. */
function depthExceeds(value, limit) {
    const stack = [[value, 1]];
    let visited = 0;
    while (stack.length > 0) {
        const [node, depth] = stack.pop();
        if (typeof node !== 'object' || node === null)
            continue;
        if (depth > limit || ++visited > 1_000_000)
            return true;
        for (const child of Object.values(node))
            stack.push([child, depth + 1]);
    }
    return false;
}
/** The first key set twice in one mapping (as the JS object would see it), without recursion. */
function firstDuplicateKey(doc) {
    const stack = [doc.contents];
    while (stack.length > 0) {
        const node = stack.pop();
        if ((0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isMap */ .jh)(node)) {
            const keys = new Set();
            for (const pair of node.items) {
                if ((0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isScalar */ .jn)(pair.key)) {
                    const key = String(pair.key.value);
                    if (keys.has(key))
                        return { key, offset: pair.key.range?.[0] ?? 0 };
                    keys.add(key);
                }
                stack.push(pair.key, pair.value);
            }
        }
        else if ((0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isSeq */ .oP)(node)) {
            for (const item of node.items)
                stack.push((0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isPair */ .tO)(item) ? item.value : item);
        }
    }
    return undefined;
}
const syntaxMessages = (input) => ({
    notParsed: (where, reason) => `\`${input}\` is not valid YAML or JSON${where}: ${reason}`,
    duplicateKey: (key, where) => `\`${input}\` has the key ${key} twice (${where}): a later value would silently replace the first`
});
/** A YAML (or JSON) document, checked; `undefined` after `fail` (an empty one is `null`). */
function parseDocumentInput(input, v, fail, messages = syntaxMessages(input)) {
    if ((0,_nesting_js__WEBPACK_IMPORTED_MODULE_3__/* .nestingMayExceed */ .w)(v, 2 * MAX_DOCUMENT_DEPTH)) {
        return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`);
    }
    let value;
    try {
        // yaml's own unique-key check compares every pair of keys: a big map takes it many seconds.
        const doc = (0,yaml__WEBPACK_IMPORTED_MODULE_0__.parseDocument)(v, { uniqueKeys: false });
        const error = doc.errors[0];
        if (error !== undefined) {
            const position = error.linePos?.[0];
            const where = position ? ` at line ${position.line}, column ${position.col}` : '';
            const reason = error.code === 'RESOURCE_EXHAUSTION'
                ? 'it is too large or nested too deeply'
                : (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
            return fail(messages.notParsed(where, reason));
        }
        const duplicate = firstDuplicateKey(doc);
        if (duplicate !== undefined) {
            return fail(messages.duplicateKey(duplicate.key, (0,_text_js__WEBPACK_IMPORTED_MODULE_4__/* .lineColumn */ .r)(v, duplicate.offset)));
        }
        value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    }
    catch (error) {
        const text = error instanceof ReferenceError ? error.message : '';
        return fail(/unresolved alias/i.test(text)
            ? `\`${input}\` uses a YAML alias (*name) whose anchor (&name) is not set before it`
            : /alias/i.test(text)
                ? `\`${input}\` expands too many YAML aliases (at most ${MAX_YAML_ALIASES})`
                : `\`${input}\` could not be read as YAML or JSON`);
    }
    if (depthExceeds(value, MAX_DOCUMENT_DEPTH)) {
        return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`);
    }
    return value;
}
/** Where each item of a top-level list starts, for messages that name a place, not its text. */
function itemPlaces(v) {
    const list = (0,yaml__WEBPACK_IMPORTED_MODULE_0__.parseDocument)(v, { uniqueKeys: false }).contents;
    if (!(0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isSeq */ .oP)(list))
        return [];
    return list.items.map(item => {
        const offset = item?.range?.[0];
        return offset === undefined ? '' : (0,_text_js__WEBPACK_IMPORTED_MODULE_4__/* .lineColumn */ .r)(v, offset);
    });
}
/** Keys that a zod object schema would silently drop, as paths (`sidecars[0].imge`). */
function unknownKeys(schema, value, path, into) {
    if (schema instanceof zod__WEBPACK_IMPORTED_MODULE_5__/* .ZodOptional */ .IiU || schema instanceof zod__WEBPACK_IMPORTED_MODULE_5__/* .ZodNullable */ .l1C) {
        unknownKeys(schema.unwrap(), value, path, into);
    }
    else if (schema instanceof zod__WEBPACK_IMPORTED_MODULE_5__/* .ZodArray */ .naA && Array.isArray(value)) {
        value.forEach((item, i) => unknownKeys(schema.element, item, `${path}[${i}]`, into));
    }
    else if (schema instanceof zod__WEBPACK_IMPORTED_MODULE_5__/* .ZodObject */ .bvH &&
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value)) {
        const shape = schema.shape;
        for (const [key, child] of Object.entries(value)) {
            const at = path === '' ? key : `${path}.${key}`;
            const known = Object.hasOwn(shape, key) ? shape[key] : undefined;
            if (known === undefined)
                into.push(at);
            else
                unknownKeys(known, child, at, into);
        }
    }
}
/** Zod issues of a document as `path: message` lines. */
function issuePaths(issues) {
    return issues.map(issue => {
        const path = issue.path
            .map((key, i) => typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)
            .join('');
        return `${path === '' ? 'the document' : path}: ${issue.message}`;
    });
}
/** A document that must match `schema`, its unknown keys rejected with their names. */
function parseWithSchema(input, v, schema, shapeText, fail) {
    const value = parseDocumentInput(input, v, fail);
    if (value === undefined)
        return undefined;
    const unknown = [];
    unknownKeys(schema, value, '', unknown);
    if (unknown.length > 0) {
        fail(`\`${input}\` has unknown keys, which would be ignored: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', ...' : ''}`);
    }
    const result = schema.safeParse(value);
    if (!result.success) {
        const typeError = result.error.issues.find(i => i.path.length === 0);
        if (typeError !== undefined) {
            return fail(`\`${input}\` must be ${shapeText}`);
        }
        for (const line of issuePaths(result.error.issues).slice(0, 10))
            fail(`\`${input}\` ${line}`);
    }
    // `undefined` after any problem: the caller checks the list further only when it is sound.
    return unknown.length === 0 && result.success ? result.data : undefined;
}
function parseSecretReferences(model, v, fail) {
    const input = 'secret-references';
    if (v === '')
        return undefined;
    const list = parseWithSchema(input, v, zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(model.SecretReference), 'a YAML or JSON list of {name, secret_name, secret_key}', fail);
    if (list === undefined)
        return undefined;
    const seen = new Set();
    list.forEach((ref, i) => {
        const problem = (message) => fail(`\`${input}\` [${i}]: ${message}`);
        if (!_interface_names_js__WEBPACK_IMPORTED_MODULE_2__/* .ENV_NAME */ .G1.test(ref.name)) {
            problem('`name` must look like an environment variable name (letters, digits and underscores, not starting with a digit)');
        }
        else if (seen.has(ref.name)) {
            problem(`${ref.name} is listed more than once`);
        }
        else if (_control_plane_vocabulary_js__WEBPACK_IMPORTED_MODULE_1__/* .RESERVED_SECRET_NAMES */ .di.includes(ref.name)) {
            problem(`${ref.name} is reserved by the platform`);
        }
        seen.add(ref.name);
        if (ref.secret_name.trim() === '')
            problem('`secret_name` must not be empty');
        if (ref.secret_key.trim() === '')
            problem('`secret_key` must not be empty');
    });
    return list;
}
function parseResourceSpec(model, v, fail) {
    return v === ''
        ? undefined
        : parseWithSchema('resource-spec', v, model.ResourceSpec, 'a YAML or JSON object of resource settings (min_scale, cpu, memory_mb, ...)', fail);
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
