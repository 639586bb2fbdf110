export const id = 416;
export const ids = [416,2,591];
export const modules = {

/***/ 7002:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  CLOUD_SOURCES: () => (/* reexport */ vocabulary/* CLOUD_SOURCES */.XQ),
  CREATE_ONLY_SOURCE_CONFIG_FIELDS: () => (/* reexport */ vocabulary/* CREATE_ONLY_SOURCE_CONFIG_FIELDS */.to),
  Container: () => (/* reexport */ Container),
  CreateDeploymentRequest: () => (/* binding */ CreateDeploymentRequest),
  CreateRevisionRequest: () => (/* binding */ CreateRevisionRequest),
  DEPLOYMENT_NAME_PATTERN: () => (/* reexport */ vocabulary/* DEPLOYMENT_NAME_PATTERN */.T1),
  DEPLOYMENT_STATUSES: () => (/* reexport */ vocabulary/* DEPLOYMENT_STATUSES */.PB),
  DEPLOYMENT_TYPES: () => (/* reexport */ vocabulary/* DEPLOYMENT_TYPES */._o),
  DeleteDeploymentQuery: () => (/* binding */ DeleteDeploymentQuery),
  Deployment: () => (/* binding */ Deployment),
  DeploymentList: () => (/* binding */ DeploymentList),
  DeploymentStatus: () => (/* binding */ DeploymentStatus),
  DeploymentType: () => (/* binding */ DeploymentType),
  EnvVar: () => (/* reexport */ EnvVar),
  ErrorDetail: () => (/* binding */ ErrorDetail),
  FAILED_REVISION_STATUSES: () => (/* reexport */ vocabulary/* FAILED_REVISION_STATUSES */.VF),
  HTTPValidationError: () => (/* binding */ HTTPValidationError),
  LOG_ORDERS: () => (/* binding */ LOG_ORDERS),
  LOG_TYPES: () => (/* binding */ LOG_TYPES),
  ListDeploymentsQuery: () => (/* binding */ ListDeploymentsQuery),
  ListRevisionsQuery: () => (/* binding */ ListRevisionsQuery),
  MAX_LOG_LINES: () => (/* binding */ MAX_LOG_LINES),
  PatchDeploymentRequest: () => (/* binding */ PatchDeploymentRequest),
  PushToken: () => (/* binding */ PushToken),
  RESERVED_SECRET_NAMES: () => (/* reexport */ vocabulary/* RESERVED_SECRET_NAMES */.di),
  RESERVED_SECRET_NAMES_HOSTED: () => (/* reexport */ vocabulary/* RESERVED_SECRET_NAMES_HOSTED */.vx),
  RESOURCE_SPEC_LIMITS: () => (/* reexport */ RESOURCE_SPEC_LIMITS),
  RESOURCE_SPEC_NUMBERS: () => (/* reexport */ RESOURCE_SPEC_NUMBERS),
  REVISION_SOURCES: () => (/* reexport */ vocabulary/* REVISION_SOURCES */.Jy),
  REVISION_STATUSES: () => (/* reexport */ vocabulary/* REVISION_STATUSES */.X_),
  RepositoryEntry: () => (/* binding */ RepositoryEntry),
  RepositoryList: () => (/* binding */ RepositoryList),
  ResourceSpec: () => (/* reexport */ ResourceSpec),
  ResourceSpecInResponse: () => (/* reexport */ ResourceSpecInResponse),
  Revision: () => (/* binding */ Revision),
  RevisionList: () => (/* binding */ RevisionList),
  RevisionLogEntry: () => (/* binding */ RevisionLogEntry),
  RevisionLogPage: () => (/* binding */ RevisionLogPage),
  RevisionLogsQuery: () => (/* binding */ RevisionLogsQuery),
  RevisionSource: () => (/* binding */ RevisionSource),
  RevisionSourceConfig: () => (/* binding */ RevisionSourceConfig),
  RevisionStatus: () => (/* binding */ RevisionStatus),
  SOURCES: () => (/* reexport */ vocabulary/* SOURCES */.Hl),
  Secret: () => (/* binding */ Secret),
  SecretInResponse: () => (/* binding */ SecretInResponse),
  SecretReference: () => (/* binding */ SecretReference),
  Source: () => (/* binding */ Source),
  SourceConfig: () => (/* binding */ SourceConfig),
  SourceConfigInResponse: () => (/* binding */ SourceConfigInResponse),
  SourceRevisionConfig: () => (/* binding */ SourceRevisionConfig),
  SourceRevisionConfigRequest: () => (/* binding */ SourceRevisionConfigRequest),
  UUID_PATTERN: () => (/* reexport */ vocabulary/* UUID_PATTERN */.JJ),
  UploadUrl: () => (/* binding */ UploadUrl),
  Uuid: () => (/* binding */ Uuid),
  ValidationErrorEntry: () => (/* binding */ ValidationErrorEntry),
  Volume: () => (/* reexport */ Volume),
  VolumeMount: () => (/* reexport */ VolumeMount),
  revisionOutcome: () => (/* reexport */ vocabulary/* revisionOutcome */.qU)
});

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/coerce.js
var coerce = __webpack_require__(9567);
// EXTERNAL MODULE: ./src/control-plane/redact.ts
var redact = __webpack_require__(7889);
;// CONCATENATED MODULE: ./src/control-plane/resource-spec.ts
// ResourceSpec and its Kubernetes-shaped parts, with the production service's limits
// (production-openapi.json, `ResourceSpec-Input`): replica counts, memory sizes, storage and
// connections are integers; the application's, the queue's and Redis' cpu and cpu_limit are
// bounded. Requests are checked against the limits (the action rejects such inputs before any
// request, the emulator answers 422); answers are read with the same fields but without them, so
// that a value the service itself set is never a reason to fail a run.

const str = schemas/* string */.YjP().nullish();
const freeMap = schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* unknown */.L5J()).nullish();
const freeObject = schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* unknown */.L5J());
const VolumeMount = schemas/* object */.Ikc({
    name: str,
    mountPath: str,
    subPath: str,
    mountPropagation: str,
    subPathExpr: str,
    readOnly: schemas/* boolean */.zMY().nullish()
});
const Volume = schemas/* object */.Ikc({
    name: str,
    configMap: freeMap,
    secret: freeMap,
    emptyDir: freeMap,
    persistentVolumeClaim: freeMap,
    nfs: freeMap,
    projected: freeMap,
    downwardAPI: freeMap,
    csi: freeMap
});
const EnvVar = schemas/* object */.Ikc({
    name: str,
    value: str,
    valueFrom: freeMap
});
const Container = schemas/* object */.Ikc({
    name: str,
    image: str,
    imagePullPolicy: str,
    workingDir: str,
    restartPolicy: str,
    command: schemas/* array */.YOg(schemas/* string */.YjP()).nullish(),
    args: schemas/* array */.YOg(schemas/* string */.YjP()).nullish(),
    env: schemas/* array */.YOg(EnvVar).nullish(),
    envFrom: schemas/* array */.YOg(freeObject).nullish(),
    resources: schemas/* object */.Ikc({ limits: freeMap, requests: freeMap }).nullish(),
    volumeMounts: schemas/* array */.YOg(VolumeMount).nullish(),
    securityContext: freeMap
});
/** Every numeric field of ResourceSpec, by group; units follow the suffix of the name. */
const RESOURCE_SPEC_NUMBERS = {
    application: ['min_scale', 'max_scale', 'cpu', 'cpu_limit', 'memory_mb', 'memory_limit_mb'],
    queue: [
        'queue_min_scale',
        'queue_max_scale',
        'queue_cpu',
        'queue_cpu_limit',
        'queue_memory_mb',
        'queue_memory_limit_mb'
    ],
    orchestrator: [
        'orchestrator_cpu',
        'orchestrator_cpu_limit',
        'orchestrator_memory_mb',
        'orchestrator_memory_limit_mb',
        'orchestrator_min_scale',
        'orchestrator_max_scale'
    ],
    executor: [
        'executor_cpu',
        'executor_cpu_limit',
        'executor_memory_mb',
        'executor_memory_limit_mb'
    ],
    redis: ['redis_cpu', 'redis_cpu_limit', 'redis_memory_mb', 'redis_memory_limit_mb'],
    database: [
        'db_cpu',
        'db_cpu_limit',
        'db_memory_mb',
        'db_memory_limit_mb',
        'db_storage_gi',
        'db_max_connections'
    ]
};
const CPU = { min: 0.1, max: 8 };
const CPU_LIMIT = { min: 0.1, max: 16 };
const RESOURCE_SPEC_LIMITS = {
    min_scale: 'int',
    max_scale: 'int',
    cpu: CPU,
    cpu_limit: CPU_LIMIT,
    memory_mb: 'int',
    memory_limit_mb: 'int',
    queue_min_scale: 'int',
    queue_max_scale: 'int',
    queue_cpu: CPU,
    queue_cpu_limit: CPU_LIMIT,
    queue_memory_mb: 'int',
    queue_memory_limit_mb: 'int',
    orchestrator_cpu: 'number',
    orchestrator_cpu_limit: 'number',
    orchestrator_memory_mb: 'int',
    orchestrator_memory_limit_mb: 'int',
    orchestrator_min_scale: 'int',
    orchestrator_max_scale: 'int',
    executor_cpu: 'number',
    executor_cpu_limit: 'number',
    executor_memory_mb: 'int',
    executor_memory_limit_mb: 'int',
    redis_cpu: CPU,
    redis_cpu_limit: CPU_LIMIT,
    redis_memory_mb: 'int',
    redis_memory_limit_mb: 'int',
    db_cpu: 'number',
    db_cpu_limit: 'number',
    db_memory_mb: 'int',
    db_memory_limit_mb: 'int',
    db_storage_gi: 'int',
    db_max_connections: 'int'
};
function limited(limit) {
    if (limit === 'int')
        return schemas/* number */.aig().int().nullish();
    if (limit === 'number')
        return schemas/* number */.aig().nullish();
    return schemas/* number */.aig().min(limit.min).max(limit.max).nullish();
}
const strictNumbers = Object.fromEntries(Object.entries(RESOURCE_SPEC_LIMITS).map(([k, limit]) => [k, limited(limit)]));
const looseNumbers = Object.fromEntries(Object.keys(RESOURCE_SPEC_LIMITS).map(k => [k, schemas/* number */.aig().nullish()]));
const parts = {
    labels: freeMap,
    annotations: freeMap,
    service_account_name: str,
    image_pull_secrets: schemas/* array */.YOg(schemas/* object */.Ikc({ name: str })).nullish(),
    volumes: schemas/* array */.YOg(Volume).nullish(),
    volume_mounts: schemas/* array */.YOg(VolumeMount).nullish(),
    init_containers: schemas/* array */.YOg(Container).nullish(),
    sidecars: schemas/* array */.YOg(Container).nullish()
};
/** A ResourceSpec as a request carries it: the production limits apply. */
const ResourceSpec = schemas/* object */.Ikc({ ...strictNumbers, ...parts });
/** A ResourceSpec as an answer carries it: the same fields, any number. */
const ResourceSpecInResponse = schemas/* object */.Ikc({ ...looseNumbers, ...parts });

// EXTERNAL MODULE: ./src/control-plane/vocabulary.ts
var vocabulary = __webpack_require__(8072);
;// CONCATENATED MODULE: ./src/control-plane/schema.ts
// The Deployment Control Plane interface, modelled once. The client validates every response with
// these schemas and the emulator validates every request with them, so the two cannot drift apart.
//
// Objects strip unknown fields instead of rejecting them: the production service adds fields
// (`display_name`, `url`, ...) and a client must not fail on them.






/**
 * A uuid as the service writes it. `guid` accepts any version: ids are opaque to us. Its pattern
 * is UUID_PATTERN (vocabulary.ts), which the inputs check without zod.
 */
const Uuid = schemas/* guid */.OsD();
/**
 * Text the service chooses that reaches the job log, the outputs and the summary (a status it
 * may add, a name, a commit): made log-safe as it is read, so that no value can carry a workflow
 * command or a terminal escape code into the log. Ordinary values pass unchanged.
 */
const serverText = (max) => schemas/* string */.YjP().transform(s => (0,redact/* sanitizeServerText */.c8)(s, max));
/** An enum that also accepts values it does not know yet, typed as the known ones or a string. */
function openEnum(_known) {
    return serverText(100);
}
// ---------------------------------------------------------------------------------------------
// Enums
const Source = schemas/* enum */.k5n(vocabulary/* SOURCES */.Hl);
const RevisionSource = schemas/* enum */.k5n(vocabulary/* REVISION_SOURCES */.Jy);
const DeploymentStatus = openEnum(vocabulary/* DEPLOYMENT_STATUSES */.PB);
/** Any string parses: a status this model does not know yet is "still in progress". */
const RevisionStatus = openEnum(vocabulary/* REVISION_STATUSES */.X_);
const DeploymentType = schemas/* enum */.k5n(vocabulary/* DEPLOYMENT_TYPES */._o);
const schema_str = schemas/* string */.YjP().nullish();
// ---------------------------------------------------------------------------------------------
// Source settings
const SourceConfig = schemas/* object */.Ikc({
    integration_id: Uuid.nullish(),
    repo_url: schema_str,
    deployment_type: DeploymentType.nullish(),
    build_on_push: schemas/* boolean */.zMY().nullish(),
    custom_url: schema_str,
    resource_spec: ResourceSpec.nullish(),
    listener_id: Uuid.nullish(),
    listener_config: schemas/* object */.Ikc({ k8s_namespace: schema_str }).nullish(),
    install_command: schema_str,
    build_command: schema_str,
    /** The template an `internal_template` deployment is made from; kept and read back. */
    template_id: schema_str
});
/**
 * SourceConfig as answers carry it: no limits on the resource numbers, and a deployment type the
 * model does not know yet is kept as text rather than failing the read.
 */
const SourceConfigInResponse = SourceConfig.extend({
    deployment_type: openEnum(vocabulary/* DEPLOYMENT_TYPES */._o).nullish(),
    resource_spec: ResourceSpecInResponse.nullish()
});
/** The request form: `repo_commit_sha` is set by the service, never by a caller. */
const SourceRevisionConfigRequest = schemas/* object */.Ikc({
    repo_ref: schema_str,
    graph_config_path: schema_str,
    image_uri: schema_str,
    source_tarball_path: schema_str
});
const SourceRevisionConfig = SourceRevisionConfigRequest.extend({
    repo_commit_sha: serverText(100).nullish()
});
const Secret = schemas/* object */.Ikc({ name: schemas/* string */.YjP(), value: schemas/* string */.YjP() });
/** Responses may leave a secret's value out or null it; only the name is certain. */
const SecretInResponse = schemas/* object */.Ikc({ name: schemas/* string */.YjP(), value: schemas/* string */.YjP().nullish() });
const SecretReference = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    secret_name: schemas/* string */.YjP(),
    secret_key: schemas/* string */.YjP()
});
// ---------------------------------------------------------------------------------------------
// Resources
const Deployment = schemas/* object */.Ikc({
    name: serverText(200),
    source: openEnum(vocabulary/* SOURCES */.Hl),
    source_config: SourceConfigInResponse,
    source_revision_config: SourceRevisionConfig,
    secrets: schemas/* array */.YOg(SecretInResponse),
    id: Uuid,
    tenant_id: Uuid,
    created_at: schemas/* string */.YjP(),
    updated_at: schemas/* string */.YjP(),
    status: DeploymentStatus,
    latest_revision_id: Uuid.nullable(),
    active_revision_id: Uuid.nullable(),
    secret_references: schemas/* array */.YOg(SecretReference).nullish(),
    image_version: schema_str,
    /** A human-readable name beside `name`; set by PATCH only, never cleared. */
    display_name: serverText(200).nullish()
});
const Revision = schemas/* object */.Ikc({
    id: Uuid,
    status: RevisionStatus,
    created_at: schema_str,
    updated_at: schema_str,
    source: schema_str,
    source_revision_config: SourceRevisionConfig.nullish()
});
const RepositoryEntry = schemas/* object */.Ikc({
    host_integration_id: Uuid,
    id: schemas/* number */.aig().int(),
    name: schemas/* string */.YjP(),
    owner: schemas/* string */.YjP(),
    url: schemas/* string */.YjP(),
    default_branch: schemas/* string */.YjP()
});
const RepositoryList = schemas/* array */.YOg(RepositoryEntry);
// ---------------------------------------------------------------------------------------------
// Requests
const CreateDeploymentRequest = schemas/* object */.Ikc({
    name: schemas/* string */.YjP().min(1),
    source: Source,
    source_config: SourceConfig,
    source_revision_config: SourceRevisionConfigRequest,
    secrets: schemas/* array */.YOg(Secret),
    secret_references: schemas/* array */.YOg(SecretReference).nullish()
});
const PatchDeploymentRequest = schemas/* object */.Ikc({
    revision_source: RevisionSource.nullish(),
    source_config: SourceConfig.nullish(),
    source_revision_config: SourceRevisionConfigRequest.nullish(),
    secrets: schemas/* array */.YOg(Secret).nullish(),
    secret_references: schemas/* array */.YOg(SecretReference).nullish(),
    /** Changes no revision; at least one character (the service has no way to clear it). */
    display_name: schemas/* string */.YjP().min(1).nullish()
});
/**
 * The part of `source_config` that belongs to a revision: what `POST .../revisions` takes. The
 * deployment-level settings (`build_on_push`, `custom_url`, the create-only fields) are not part
 * of a revision and are dropped from such a request (docs/decisions.md).
 */
const RevisionSourceConfig = SourceConfig.pick({
    install_command: true,
    build_command: true,
    resource_spec: true
});
/**
 * `POST /v2/deployments/{deployment_id}/revisions`: a new revision from this body, the secrets
 * and settings applied as a PATCH applies them (omitted or empty `secrets` keep the old ones).
 * Not in the published description; sent by the service's Terraform provider for every update.
 */
const CreateRevisionRequest = schemas/* object */.Ikc({
    source_revision_config: SourceRevisionConfigRequest,
    source_config: RevisionSourceConfig.nullish(),
    secrets: schemas/* array */.YOg(Secret).nullish(),
    secret_references: schemas/* array */.YOg(SecretReference).nullish()
});
/** `POST .../push-token`: a registry login for pushing an `internal_docker` image. */
const PushToken = schemas/* object */.Ikc({ token: schemas/* string */.YjP().min(1), registry_url: schemas/* string */.YjP().min(1) });
/**
 * `POST .../upload-url`: where to PUT an `internal_source` tarball, and the `object_path` that a
 * PATCH then names as `source_revision_config.source_tarball_path`.
 */
const UploadUrl = schemas/* object */.Ikc({
    upload_url: schemas/* string */.YjP()
        .min(1)
        .refine(s => ['http:', 'https:'].includes(URL.parse(s)?.protocol ?? ''), 'must be an http(s) URL'),
    object_path: schemas/* string */.YjP().min(1)
});
/** Query strings carry text; `true`/`false` are the only booleans FastAPI-style services take. */
const queryBoolean = schemas/* union */.KCZ([schemas/* boolean */.zMY(), schemas/* enum */.k5n(['true', 'false', '1', '0'])])
    .transform(v => v === true || v === 'true' || v === '1');
const queryInt = coerce/* number */.ai().int();
/** `GET /v2/deployments` query, with the parameter names of the production service. */
const ListDeploymentsQuery = schemas/* object */.Ikc({
    limit: queryInt.min(1).max(vocabulary/* MAX_PAGE_SIZE */.H4).default(20),
    offset: queryInt.min(0).default(0),
    name_contains: schemas/* string */.YjP().optional(),
    status: schemas/* string */.YjP().optional(),
    remote_reconciled: queryBoolean.optional(),
    tag_value_ids: schemas/* string */.YjP().optional(),
    image_version: schemas/* string */.YjP().optional(),
    deployment_type: DeploymentType.optional(),
    deployment_ids: schemas/* string */.YjP().optional()
});
const DeploymentList = schemas/* object */.Ikc({
    resources: schemas/* array */.YOg(Deployment),
    offset: schemas/* number */.aig().int()
});
// ---------------------------------------------------------------------------------------------
// Operations beyond the interface (docs/control-plane.md): revisions, redeploy, delete, logs
/** `GET /v2/deployments/{deployment_id}/revisions` query; `status` is comma-separated. */
const ListRevisionsQuery = schemas/* object */.Ikc({
    limit: queryInt.min(1).max(vocabulary/* MAX_PAGE_SIZE */.H4).default(20),
    offset: queryInt.min(0).default(0),
    status: schemas/* string */.YjP().optional(),
    remote_reconciled: queryBoolean.optional()
});
/** Revisions, newest first; `offset` is the next page's. */
const RevisionList = schemas/* object */.Ikc({
    resources: schemas/* array */.YOg(Revision),
    offset: schemas/* number */.aig().int()
});
/** `DELETE /v2/deployments/{deployment_id}` query. */
const DeleteDeploymentQuery = schemas/* object */.Ikc({
    delete_tracing_project: queryBoolean.default(false)
});
// ---------------------------------------------------------------------------------------------
// Error bodies
const ErrorDetail = schemas/* object */.Ikc({ detail: schemas/* string */.YjP() });
const ValidationErrorEntry = schemas/* object */.Ikc({
    loc: schemas/* array */.YOg(schemas/* union */.KCZ([schemas/* string */.YjP(), schemas/* number */.aig().int()])),
    msg: schemas/* string */.YjP(),
    type: schemas/* string */.YjP(),
    input: schemas/* unknown */.L5J().optional(),
    ctx: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* unknown */.L5J()).optional()
});
const HTTPValidationError = schemas/* object */.Ikc({ detail: schemas/* array */.YOg(ValidationErrorEntry) });
// The revision and deployment logs, beyond the interface (docs/control-plane.md, "Operations"):
// the query of a page and the page.
const LOG_TYPES = ['build', 'deploy'];
const LOG_ORDERS = ['asc', 'desc'];
/** `GET /v2/deployments/{deployment_id}/revisions/{revision_id}/logs` query. */
const RevisionLogsQuery = schemas/* object */.Ikc({
    type: schemas/* enum */.k5n(LOG_TYPES),
    order: schemas/* enum */.k5n(LOG_ORDERS).default('asc'),
    limit: queryInt.min(1).max(1000).default(50),
    offset: schemas/* string */.YjP().optional(),
    level: schemas/* string */.YjP().optional(),
    query: schemas/* string */.YjP().optional(),
    start_time: schemas/* string */.YjP().optional(),
    end_time: schemas/* string */.YjP().optional()
});
/** Lines kept from one answer: the most that a request may ask for. */
const MAX_LOG_LINES = 1000;
const textOrNumber = schemas/* union */.KCZ([schemas/* string */.YjP(), schemas/* number */.aig()])
    .nullish()
    .transform(v => (v === null || v === undefined ? null : String(v)));
/**
 * One log line. `message` is what the build printed: untrusted, possibly holding secret values,
 * and kept as it came (the client caps its length after redacting; the caller redacts and
 * sanitizes before printing).
 */
const RevisionLogEntry = schemas/* object */.Ikc({
    /** Stable and unique per line where the service gives it: readers that follow a log dedupe on it. */
    id: textOrNumber.optional(),
    timestamp: textOrNumber,
    message: schemas/* string */.YjP(),
    level: textOrNumber
});
const RevisionLogPage = schemas/* object */.Ikc({
    logs: schemas/* array */.YOg(RevisionLogEntry).transform(lines => lines.slice(0, MAX_LOG_LINES)),
    /** The cursor of the next page; null at the end. */
    next_offset: textOrNumber
});


/***/ }),

/***/ 2591:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  MAX_DOCUMENT_DEPTH: () => (/* binding */ MAX_DOCUMENT_DEPTH),
  MAX_YAML_ALIASES: () => (/* binding */ MAX_YAML_ALIASES),
  parseDocumentInput: () => (/* binding */ parseDocumentInput),
  parseResourceSpec: () => (/* binding */ parseResourceSpec),
  parseSecretReferences: () => (/* binding */ parseSecretReferences)
});

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
// EXTERNAL MODULE: ./src/control-plane/schema.ts + 1 modules
var schema = __webpack_require__(7002);
// EXTERNAL MODULE: ./src/control-plane/vocabulary.ts
var vocabulary = __webpack_require__(8072);
// EXTERNAL MODULE: ./src/inputs/names.ts
var names = __webpack_require__(5585);
// EXTERNAL MODULE: ./src/inputs/text.ts
var inputs_text = __webpack_require__(4862);
;// CONCATENATED MODULE: ./src/inputs/nesting.ts
// A linear guard against deeply nested YAML/JSON, run before the parser (document-parser.ts).

/**
 * Whether the nesting of a YAML/JSON text may exceed `limit`, by a linear scan that runs before
 * the parser: the parser recurses per level, and a megabyte of `[[[[...` takes it seconds and
 * gigabytes. It over-estimates a little (a later exact check enforces MAX_DOCUMENT_DEPTH), never
 * recurses, and what it misses the parser still stops (RESOURCE_EXHAUSTION) on its own.
 */
function nestingMayExceed(text, limit) {
    const indents = [];
    let flow = 0;
    let quote;
    let blockScalarParent;
    for (const line of (0,inputs_text/* lines */.M)(text)) {
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

;// CONCATENATED MODULE: ./src/inputs/document-parser.ts
// YAML/JSON document inputs: one parser for all of them (`resource-spec`, `secret-references` and
// the JSON-object form of `secrets`), with limits on nesting, aliases and size and duplicate keys
// rejected, so that every document input is read, limited and masked alike. `resource-spec` and
// `secret-references` are then checked by their schema, unknown keys rejected. Loaded only when
// one of those inputs is set (documents.ts): it brings yaml and the zod model with it.







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
        if ((0,dist/* isMap */.jh)(node)) {
            const keys = new Set();
            for (const pair of node.items) {
                if ((0,dist/* isScalar */.jn)(pair.key)) {
                    const key = String(pair.key.value);
                    if (keys.has(key))
                        return { key, offset: pair.key.range?.[0] ?? 0 };
                    keys.add(key);
                }
                stack.push(pair.key, pair.value);
            }
        }
        else if ((0,dist/* isSeq */.oP)(node)) {
            for (const item of node.items)
                stack.push((0,dist/* isPair */.tO)(item) ? item.value : item);
        }
    }
    return undefined;
}
const syntaxMessages = (input) => ({
    notParsed: (where, reason) => `\`${input}\` is not valid YAML or JSON${where}: ${reason}`,
    duplicateKey: (key, where) => `\`${input}\` has the key ${key} twice (${where}): a later value would silently replace the first`
});
/**
 * A YAML (or JSON) document, with alias, depth and error checks; `undefined` after `fail` (a
 * document that parses is never `undefined`: an empty one is `null`).
 */
function parseDocumentInput(input, v, fail, messages = syntaxMessages(input)) {
    if (nestingMayExceed(v, 2 * MAX_DOCUMENT_DEPTH)) {
        return fail(`\`${input}\` is nested too deeply: at most ${MAX_DOCUMENT_DEPTH} levels`);
    }
    let value;
    try {
        // yaml's own unique-key check compares every pair of keys: a big map takes it many seconds.
        const doc = (0,dist/* parseDocument */.Tp)(v, { uniqueKeys: false });
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
            return fail(messages.duplicateKey(duplicate.key, (0,inputs_text/* lineColumn */.r)(v, duplicate.offset)));
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
/** Keys that a zod object schema would silently drop, as paths (`sidecars[0].imge`). */
function unknownKeys(schema, value, path, into) {
    if (schema instanceof schemas/* ZodOptional */.IiU || schema instanceof schemas/* ZodNullable */.l1C) {
        unknownKeys(schema.unwrap(), value, path, into);
    }
    else if (schema instanceof schemas/* ZodArray */.naA && Array.isArray(value)) {
        value.forEach((item, i) => unknownKeys(schema.element, item, `${path}[${i}]`, into));
    }
    else if (schema instanceof schemas/* ZodObject */.bvH &&
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
const SecretReferenceList = schemas/* array */.YOg(schema.SecretReference);
function parseSecretReferences(v, fail) {
    const input = 'secret-references';
    if (v === '')
        return undefined;
    const list = parseWithSchema(input, v, SecretReferenceList, 'a YAML or JSON list of {name, secret_name, secret_key}', fail);
    if (list === undefined)
        return undefined;
    const seen = new Set();
    list.forEach((ref, i) => {
        const problem = (message) => fail(`\`${input}\` [${i}]: ${message}`);
        if (!names/* ENV_NAME */.G1.test(ref.name)) {
            problem('`name` must look like an environment variable name (letters, digits and underscores, not starting with a digit)');
        }
        else if (seen.has(ref.name)) {
            problem(`${ref.name} is listed more than once`);
        }
        else if (vocabulary/* RESERVED_SECRET_NAMES */.di.includes(ref.name)) {
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
function parseResourceSpec(v, fail) {
    return v === ''
        ? undefined
        : parseWithSchema('resource-spec', v, schema.ResourceSpec, 'a YAML or JSON object of resource settings (min_scale, cpu, memory_mb, ...)', fail);
}


/***/ }),

/***/ 8416:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   loadSmokeTest: () => (/* binding */ loadSmokeTest)
/* harmony export */ });
/* unused harmony exports DEFAULT_CASE_TIMEOUT_MS, MAX_CASE_TIMEOUT_MS, MAX_CASES, parseSmokeCases, readSmokeCases */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _duration_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7607);
/* harmony import */ var _document_parser_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(2591);
/* harmony import */ var _problems_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8925);
// The smoke-test file: a YAML or JSON list of cases `{name, graph, input, expect?, timeout?}` that
// the health gate runs against the new revision (src/health/verify/smoke.ts). Read and checked
// whole before any request: a bad file is one error naming the input, the file and what is
// expected. Parsed with the document inputs' parser (limits on size, nesting, aliases, duplicates).





const DEFAULT_CASE_TIMEOUT_MS = 60_000;
const MAX_CASE_TIMEOUT_MS = 30 * 60_000;
const MAX_CASES = 50;
/** `a`, `a.b`, `a[0]`, `a.b[2].c`, `[0]`: keys are any text but `.` and `[`. */
const PATH = /^(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*$/;
const CASE_KEYS = ['name', 'graph', 'input', 'expect', 'timeout'];
const EXPECT_KEYS = ['status', 'contains', 'path', 'equals'];
const EXPECTED_SHAPE = 'a list of {name, graph, input, expect?: {status: success|error, contains, path, equals}, timeout?}';
/**
 * The cases of a smoke-test file's text; undefined after one `fail` naming `label` (the input as the
 * user set it: `smoke-test`, `--smoke-test`, `CONTROL_PLANE_SMOKE_TEST`) and `file`.
 */
function parseSmokeCases(text, label, file, fail) {
    const where = `\`${label}\` (${file})`;
    const doc = (0,_document_parser_js__WEBPACK_IMPORTED_MODULE_3__.parseDocumentInput)(label, text, fail, {
        notParsed: (at, reason) => `${where} is not valid YAML or JSON${at}: ${reason}`,
        duplicateKey: (key, at) => `${where} has the key ${key} twice (${at})`
    });
    if (doc === undefined)
        return undefined;
    if (!Array.isArray(doc) || doc.length === 0)
        return fail(`${where} must be ${EXPECTED_SHAPE}, with at least one case`);
    if (doc.length > MAX_CASES)
        return fail(`${where} has ${doc.length} cases: at most ${MAX_CASES}`);
    const cases = [];
    const names = new Set();
    for (const [i, item] of doc.entries()) {
        const problem = caseProblem(item);
        if (problem !== undefined)
            return fail(`${where}, case ${i + 1}: ${problem}`);
        const c = toCase(item);
        if (names.has(c.name))
            return fail(`${where}, case ${i + 1}: the name "${c.name}" is used twice`);
        names.add(c.name);
        cases.push(c);
    }
    return cases;
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v) => typeof v === 'string' && v.trim() !== '';
/** What is wrong with one case, or undefined. */
function caseProblem(item) {
    if (!isObject(item))
        return `expected {name, graph, input, expect?, timeout?}`;
    const extra = Object.keys(item).find(k => !CASE_KEYS.includes(k));
    if (extra !== undefined)
        return `unknown key "${extra}" (expected ${CASE_KEYS.join(', ')})`;
    if (!nonEmpty(item.name))
        return '`name` must be a non-empty text';
    if (!nonEmpty(item.graph))
        return '`graph` must be a graph id of the config (a non-empty text)';
    if (!('input' in item) || item.input === undefined)
        return '`input` is required (the run’s input)';
    if (item.timeout !== undefined && timeoutOf(item.timeout) === undefined)
        return `\`timeout\` must be a duration such as 60s or 2m (at most 30m), not ${JSON.stringify(item.timeout)}`;
    if (item.expect === undefined)
        return undefined;
    return expectProblem(item.expect);
}
function expectProblem(e) {
    if (!isObject(e))
        return '`expect` must be {status?, contains?, path?, equals?}';
    const extra = Object.keys(e).find(k => !EXPECT_KEYS.includes(k));
    if (extra !== undefined)
        return `unknown key "expect.${extra}" (expected ${EXPECT_KEYS.join(', ')})`;
    if (e.status !== undefined && e.status !== 'success' && e.status !== 'error')
        return '`expect.status` must be success or error';
    if (e.contains !== undefined && !nonEmpty(e.contains))
        return '`expect.contains` must be a non-empty text';
    if (e.path !== undefined && !(typeof e.path === 'string' && PATH.test(e.path)))
        return '`expect.path` must be a path into the output such as a.b[0].c';
    return undefined;
}
/** Milliseconds of a case's timeout: a duration text (`90s`, `2m`) or a number of seconds. */
function timeoutOf(v) {
    const ms = typeof v === 'number' && Number.isInteger(v)
        ? v * 1000
        : typeof v === 'string'
            ? (0,_duration_js__WEBPACK_IMPORTED_MODULE_2__/* .parseDuration */ .E)(v)
            : undefined;
    return ms !== undefined && ms > 0 && ms <= MAX_CASE_TIMEOUT_MS ? ms : undefined;
}
function toCase(item) {
    const e = (item.expect ?? {});
    const expect = {};
    if (e.status !== undefined)
        expect.status = e.status;
    if (e.contains !== undefined)
        expect.contains = e.contains;
    if (e.path !== undefined)
        expect.path = e.path;
    if ('equals' in e)
        expect.equals = e.equals;
    return {
        name: item.name.trim(),
        graph: item.graph.trim(),
        input: item.input,
        expect,
        timeoutMs: item.timeout === undefined ? DEFAULT_CASE_TIMEOUT_MS : timeoutOf(item.timeout)
    };
}
/** Reads and parses the smoke-test file at `path` (shown as `file`); undefined after `fail`. */
async function readSmokeCases(path, label, file, fail) {
    let text;
    try {
        text = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path, 'utf8');
    }
    catch (error) {
        const code = error.code;
        const why = code === 'ENOENT'
            ? 'there is no such file'
            : code === 'EISDIR'
                ? 'it is a directory'
                : String(code ?? error);
        return fail(`\`${label}\` (${file}) could not be read: ${why}; expected a YAML or JSON file of smoke cases`);
    }
    if (Buffer.byteLength(text) > _problems_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_DOCUMENT_BYTES */ .bi)
        return fail(`\`${label}\` (${file}) is larger than ${_problems_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_DOCUMENT_BYTES */ .bi / 1024 / 1024} MiB`);
    return parseSmokeCases(text, label, file, fail);
}
/**
 * The `smoke-test` input's cases, read relative to `workspace` before any request: the cases
 * (none when the input is not set), or the one problem to report, naming the input as set.
 */
async function loadSmokeTest(path, workspace, naming) {
    if (path === undefined)
        return { cases: undefined };
    let problem;
    const fail = message => void (problem ??= message);
    const full = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(path) ? path : (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(workspace ?? '.', path);
    const cases = await readSmokeCases(full, naming.name('smoke-test'), path, fail);
    if (problem !== undefined || cases === undefined)
        return { problem: { input: 'smoke-test', message: problem ?? `\`${path}\` holds no case` } };
    return { cases };
}


/***/ })

};
