export const id = 542;
export const ids = [542];
export const modules = {

/***/ 2542:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  CreateDeploymentRequest: () => (/* binding */ CreateDeploymentRequest),
  CreateRevisionRequest: () => (/* binding */ CreateRevisionRequest),
  DeleteDeploymentQuery: () => (/* binding */ DeleteDeploymentQuery),
  Deployment: () => (/* binding */ Deployment),
  DeploymentList: () => (/* binding */ DeploymentList),
  DeploymentStatus: () => (/* binding */ DeploymentStatus),
  DeploymentType: () => (/* binding */ DeploymentType),
  ErrorDetail: () => (/* binding */ ErrorDetail),
  HTTPValidationError: () => (/* binding */ HTTPValidationError),
  LOG_ORDERS: () => (/* binding */ LOG_ORDERS),
  LOG_TYPES: () => (/* binding */ LOG_TYPES),
  ListDeploymentsQuery: () => (/* binding */ ListDeploymentsQuery),
  ListRevisionsQuery: () => (/* binding */ ListRevisionsQuery),
  MAX_LOG_LINES: () => (/* binding */ MAX_LOG_LINES),
  PatchDeploymentRequest: () => (/* binding */ PatchDeploymentRequest),
  PushToken: () => (/* binding */ PushToken),
  RepositoryEntry: () => (/* binding */ RepositoryEntry),
  RepositoryList: () => (/* binding */ RepositoryList),
  ResourceSpec: () => (/* reexport */ ResourceSpec),
  ResourceTiersRequest: () => (/* binding */ ResourceTiersRequest),
  Revision: () => (/* binding */ Revision),
  RevisionList: () => (/* binding */ RevisionList),
  RevisionLogEntry: () => (/* binding */ RevisionLogEntry),
  RevisionLogPage: () => (/* binding */ RevisionLogPage),
  RevisionLogsQuery: () => (/* binding */ RevisionLogsQuery),
  RevisionSource: () => (/* binding */ RevisionSource),
  RevisionSourceConfig: () => (/* binding */ RevisionSourceConfig),
  RevisionStatus: () => (/* binding */ RevisionStatus),
  Secret: () => (/* binding */ Secret),
  SecretInResponse: () => (/* binding */ SecretInResponse),
  SecretReference: () => (/* binding */ SecretReference),
  Source: () => (/* binding */ Source),
  SourceConfig: () => (/* binding */ SourceConfig),
  SourceConfigInResponse: () => (/* binding */ SourceConfigInResponse),
  SourceRevisionConfig: () => (/* binding */ SourceRevisionConfig),
  SourceRevisionConfigRequest: () => (/* binding */ SourceRevisionConfigRequest),
  UploadUrl: () => (/* binding */ UploadUrl),
  Uuid: () => (/* binding */ Uuid),
  ValidationErrorEntry: () => (/* binding */ ValidationErrorEntry)
});

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var classic_schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./node_modules/zod/v4/core/core.js
var core_core = __webpack_require__(8532);
// EXTERNAL MODULE: ./node_modules/zod/v4/core/api.js
var api = __webpack_require__(3759);
;// CONCATENATED MODULE: ./node_modules/zod/v4/classic/coerce.js


function string(params) {
    return core._coercedString(schemas.ZodString, params);
}
function number(params) {
    return api/* _coercedNumber */.qG(classic_schemas/* ZodNumber */.rSt, params);
}
function coerce_boolean(params) {
    return core._coercedBoolean(schemas.ZodBoolean, params);
}
function bigint(params) {
    return core._coercedBigint(schemas.ZodBigInt, params);
}
function date(params) {
    return core._coercedDate(schemas.ZodDate, params);
}

// EXTERNAL MODULE: ./src/inert.ts
var inert = __webpack_require__(2679);
;// CONCATENATED MODULE: ./src/control-plane/resource-spec.ts
// ResourceSpec and its Kubernetes-shaped parts, with the production service's limits
// (production-openapi.json, `ResourceSpec-Input`) on requests only: a value the service itself set
// is never a reason to fail a run.

const str = classic_schemas/* string */.YjP().nullish();
const freeMap = classic_schemas/* record */.g1P(classic_schemas/* string */.YjP(), classic_schemas/* unknown */.L5J()).nullish();
const freeObject = classic_schemas/* record */.g1P(classic_schemas/* string */.YjP(), classic_schemas/* unknown */.L5J());
const VolumeMount = classic_schemas/* object */.Ikc({
    name: str,
    mountPath: str,
    subPath: str,
    mountPropagation: str,
    subPathExpr: str,
    readOnly: classic_schemas/* boolean */.zMY().nullish()
});
const Volume = classic_schemas/* object */.Ikc({
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
const EnvVar = classic_schemas/* object */.Ikc({ name: str, value: str, valueFrom: freeMap });
const Container = classic_schemas/* object */.Ikc({
    name: str,
    image: str,
    imagePullPolicy: str,
    workingDir: str,
    restartPolicy: str,
    command: classic_schemas/* array */.YOg(classic_schemas/* string */.YjP()).nullish(),
    args: classic_schemas/* array */.YOg(classic_schemas/* string */.YjP()).nullish(),
    env: classic_schemas/* array */.YOg(EnvVar).nullish(),
    envFrom: classic_schemas/* array */.YOg(freeObject).nullish(),
    resources: classic_schemas/* object */.Ikc({ limits: freeMap, requests: freeMap }).nullish(),
    volumeMounts: classic_schemas/* array */.YOg(VolumeMount).nullish(),
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
/** The groups whose cpu and cpu_limit production bounds. */
const BOUNDED_CPU = new Set(['application', 'queue', 'redis']);
function limitOf(group, field) {
    if (!/cpu(_limit)?$/.test(field))
        return 'int';
    if (!BOUNDED_CPU.has(group))
        return 'number';
    return field.endsWith('_limit') ? CPU_LIMIT : CPU;
}
const RESOURCE_SPEC_LIMITS = Object.fromEntries(Object.entries(RESOURCE_SPEC_NUMBERS).flatMap(([group, fields]) => fields.map(f => [f, limitOf(group, f)])));
function limited(limit) {
    if (limit === 'int')
        return classic_schemas/* number */.aig().int().nullish();
    if (limit === 'number')
        return classic_schemas/* number */.aig().nullish();
    return classic_schemas/* number */.aig().min(limit.min).max(limit.max).nullish();
}
const strictNumbers = Object.fromEntries(Object.entries(RESOURCE_SPEC_LIMITS).map(([k, limit]) => [k, limited(limit)]));
const looseNumbers = Object.fromEntries(Object.keys(RESOURCE_SPEC_LIMITS).map(k => [k, classic_schemas/* number */.aig().nullish()]));
const parts = {
    labels: freeMap,
    annotations: freeMap,
    service_account_name: str,
    image_pull_secrets: classic_schemas/* array */.YOg(classic_schemas/* object */.Ikc({ name: str })).nullish(),
    volumes: classic_schemas/* array */.YOg(Volume).nullish(),
    volume_mounts: classic_schemas/* array */.YOg(VolumeMount).nullish(),
    init_containers: classic_schemas/* array */.YOg(Container).nullish(),
    sidecars: classic_schemas/* array */.YOg(Container).nullish()
};
/** A ResourceSpec as a request carries it: the production limits apply. */
const ResourceSpec = classic_schemas/* object */.Ikc({ ...strictNumbers, ...parts });
/** A ResourceSpec as an answer carries it: the same fields, any number. */
const ResourceSpecInResponse = classic_schemas/* object */.Ikc({ ...looseNumbers, ...parts });

// EXTERNAL MODULE: ./src/control-plane/vocabulary.ts
var vocabulary = __webpack_require__(8072);
;// CONCATENATED MODULE: ./src/control-plane/schema.ts
// The Deployment Control Plane interface, modelled once: the client checks every answer with it,
// the emulator every request, so the two cannot drift apart. Objects strip unknown fields rather
// than refuse them: the production service adds fields, and a client must not fail on them.



/** The document parser checks a resource-spec input against the model it is handed. */


/** A uuid of any version (ids are opaque to us); UUID_PATTERN is its pattern without zod. */
const Uuid = classic_schemas/* guid */.OsD();
/** The service's text that reaches the log and outputs, made log-safe (no command, no escape). */
const serverText = (max) => classic_schemas/* string */.YjP().transform(s => (0,inert/* sanitizeServerText */.c8)(s, max));
/** An enum that also accepts values it does not know yet, typed as the known ones or a string. */
function openEnum(_known) {
    return serverText(100);
}
// ---------------------------------------------------------------------------------------------
// Enums
const Source = classic_schemas/* enum */.k5n(vocabulary/* SOURCES */.Hl);
const RevisionSource = classic_schemas/* enum */.k5n(vocabulary/* REVISION_SOURCES */.Jy);
const DeploymentStatus = openEnum(vocabulary/* DEPLOYMENT_STATUSES */.PB);
/** Any string parses: a status this model does not know yet is "still in progress". */
const RevisionStatus = openEnum(vocabulary/* REVISION_STATUSES */.X_);
const DeploymentType = classic_schemas/* enum */.k5n(vocabulary/* DEPLOYMENT_TYPES */._o);
const schema_str = classic_schemas/* string */.YjP().nullish();
// ---------------------------------------------------------------------------------------------
// Source settings
const SourceConfig = classic_schemas/* object */.Ikc({
    integration_id: Uuid.nullish(),
    repo_url: schema_str,
    deployment_type: DeploymentType.nullish(),
    build_on_push: classic_schemas/* boolean */.zMY().nullish(),
    custom_url: schema_str,
    resource_spec: ResourceSpec.nullish(),
    listener_id: Uuid.nullish(),
    listener_config: classic_schemas/* object */.Ikc({ k8s_namespace: schema_str }).nullish(),
    install_command: schema_str,
    build_command: schema_str,
    /** The template an `internal_template` deployment is made from; kept and read back. */
    template_id: schema_str
});
/** SourceConfig as answers carry it: any resource numbers, an unknown deployment type as text. */
const SourceConfigInResponse = SourceConfig.extend({
    deployment_type: openEnum(vocabulary/* DEPLOYMENT_TYPES */._o).nullish(),
    resource_spec: ResourceSpecInResponse.nullish()
});
/** The request form: `repo_commit_sha` is set by the service, never by a caller. */
const SourceRevisionConfigRequest = classic_schemas/* object */.Ikc({
    repo_ref: schema_str,
    graph_config_path: schema_str,
    image_uri: schema_str,
    source_tarball_path: schema_str
});
const SourceRevisionConfig = SourceRevisionConfigRequest.extend({
    repo_commit_sha: serverText(100).nullish()
});
const Secret = classic_schemas/* object */.Ikc({ name: classic_schemas/* string */.YjP(), value: classic_schemas/* string */.YjP() });
/** Responses may leave a secret's value out or null it; only the name is certain. */
const SecretInResponse = classic_schemas/* object */.Ikc({ name: classic_schemas/* string */.YjP(), value: classic_schemas/* string */.YjP().nullish() });
const SecretReference = classic_schemas/* object */.Ikc({
    name: classic_schemas/* string */.YjP(),
    secret_name: classic_schemas/* string */.YjP(),
    secret_key: classic_schemas/* string */.YjP()
});
// ---------------------------------------------------------------------------------------------
// Resources
const Deployment = classic_schemas/* object */.Ikc({
    name: serverText(200),
    source: openEnum(vocabulary/* SOURCES */.Hl),
    source_config: SourceConfigInResponse,
    source_revision_config: SourceRevisionConfig,
    secrets: classic_schemas/* array */.YOg(SecretInResponse),
    id: Uuid,
    tenant_id: Uuid,
    created_at: classic_schemas/* string */.YjP(),
    updated_at: classic_schemas/* string */.YjP(),
    status: DeploymentStatus,
    latest_revision_id: Uuid.nullable(),
    active_revision_id: Uuid.nullable(),
    secret_references: classic_schemas/* array */.YOg(SecretReference).nullish(),
    image_version: schema_str,
    /** A human-readable name beside `name`; set by PATCH only, never cleared. */
    display_name: serverText(200).nullish(),
    /** Where the agent server answers (the service's newer field; `custom_url` where it is absent). */
    url: classic_schemas/* string */.YjP().nullish(),
    /** The compute tier (`SERVERLESS_M`, `DEDICATED_L`...), where the service reports it. */
    deployment_tier: serverText(100).nullish(),
    /** The database tier of a Dedicated deployment, where the service reports it. */
    database_tier: serverText(100).nullish(),
    /**
     * The agent environment it is bound to (agent-based workspaces, beta). Never fails a read: a
     * block of another shape reads as none; only a create's 409 looks at it (who holds the environment).
     */
    agent: classic_schemas/* object */.Ikc({ agent_id: serverText(200).nullish(), environment: serverText(100).nullish() })
        .nullish()
        .catch(null)
});
/**
 * A page's entries, as lenient as the service: one that does not parse is skipped. Each must have
 * its id: the paging counts by it, and a page without ids is no list (a proxy's).
 */
function lenientEntries(entry) {
    return classic_schemas/* array */.YOg(classic_schemas/* unknown */.L5J()).transform((items, ctx) => {
        const resources = [];
        const skipped = [];
        for (const [index, item] of items.entries()) {
            const raw = (typeof item === 'object' && item !== null ? item : {});
            const id = Uuid.safeParse(raw.id);
            if (!id.success) {
                ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'Expected a uuid' });
                return core_core/* NEVER */.tm;
            }
            const parsed = entry.safeParse(item);
            if (parsed.success) {
                resources.push(parsed.data);
                continue;
            }
            const issue = parsed.error.issues[0];
            const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
            skipped.push({
                index,
                id: id.data,
                name: typeof raw.name === 'string' ? (0,inert/* sanitizeServerText */.c8)(raw.name, 200) : undefined,
                problem: (0,inert/* sanitizeServerText */.c8)(`${where}${issue?.message.toLowerCase() ?? 'does not fit'}`, 300),
                bound: typeof raw.agent === 'object' && raw.agent !== null
            });
        }
        return { resources, skipped };
    });
}
const Revision = classic_schemas/* object */.Ikc({
    id: Uuid,
    status: RevisionStatus,
    created_at: schema_str,
    updated_at: schema_str,
    source: schema_str,
    source_revision_config: SourceRevisionConfig.nullish(),
    /** Why a revision failed, where the service says. */
    status_message: serverText(500).nullish()
});
const RepositoryEntry = classic_schemas/* object */.Ikc({
    host_integration_id: Uuid,
    id: classic_schemas/* number */.aig().int(),
    name: classic_schemas/* string */.YjP(),
    owner: classic_schemas/* string */.YjP(),
    url: classic_schemas/* string */.YjP(),
    default_branch: classic_schemas/* string */.YjP()
});
const RepositoryList = classic_schemas/* array */.YOg(RepositoryEntry);
// ---------------------------------------------------------------------------------------------
// Requests
const CreateDeploymentRequest = classic_schemas/* object */.Ikc({
    name: classic_schemas/* string */.YjP().min(1),
    source: Source,
    source_config: SourceConfig,
    source_revision_config: SourceRevisionConfigRequest,
    secrets: classic_schemas/* array */.YOg(Secret),
    secret_references: classic_schemas/* array */.YOg(SecretReference).nullish()
});
const PatchDeploymentRequest = classic_schemas/* object */.Ikc({
    revision_source: RevisionSource.nullish(),
    source_config: SourceConfig.nullish(),
    source_revision_config: SourceRevisionConfigRequest.nullish(),
    secrets: classic_schemas/* array */.YOg(Secret).nullish(),
    secret_references: classic_schemas/* array */.YOg(SecretReference).nullish(),
    /** Changes no revision; at least one character (the service has no way to clear it). */
    display_name: classic_schemas/* string */.YjP().min(1).nullish()
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
const CreateRevisionRequest = classic_schemas/* object */.Ikc({
    source_revision_config: SourceRevisionConfigRequest,
    source_config: RevisionSourceConfig.nullish(),
    secrets: classic_schemas/* array */.YOg(Secret).nullish(),
    secret_references: classic_schemas/* array */.YOg(SecretReference).nullish()
});
/**
 * `PATCH /v2/deployments/{deployment_id}/resource-tiers`: a new size, as a new revision. At least
 * one tier; a field left out keeps the deployment's. The database tier is Dedicated's only.
 */
const ResourceTiersRequest = classic_schemas/* object */.Ikc({
    compute_tier: classic_schemas/* enum */.k5n(vocabulary/* COMPUTE_TIERS */.ET).nullish(),
    database_tier: classic_schemas/* enum */.k5n(vocabulary/* DATABASE_TIERS */.iR).nullish()
})
    .refine(r => (r.compute_tier ?? r.database_tier) != null, 'At least one of compute_tier or database_tier must be provided.');
/** `POST .../push-token`: a registry login for pushing an `internal_docker` image. */
const PushToken = classic_schemas/* object */.Ikc({ token: classic_schemas/* string */.YjP().min(1), registry_url: classic_schemas/* string */.YjP().min(1) });
/** `POST .../upload-url`: where to PUT a tarball, and the `object_path` a PATCH names. */
const UploadUrl = classic_schemas/* object */.Ikc({
    // Any text: which URLs the source may be sent to is the upload's rule (upload/put.ts), refused
    // there once, not here as a malformed answer that a read would ask for again.
    upload_url: classic_schemas/* string */.YjP().min(1),
    object_path: classic_schemas/* string */.YjP().min(1)
});
/** Query strings carry text; `true`/`false` are the only booleans FastAPI-style services take. */
const queryBoolean = classic_schemas/* union */.KCZ([classic_schemas/* boolean */.zMY(), classic_schemas/* enum */.k5n(['true', 'false', '1', '0'])])
    .transform(v => v === true || v === 'true' || v === '1');
const queryInt = number().int();
/** `GET /v2/deployments` query, with the parameter names of the production service. */
const ListDeploymentsQuery = classic_schemas/* object */.Ikc({
    limit: queryInt.min(1).max(vocabulary/* MAX_PAGE_SIZE */.H4).default(20),
    offset: queryInt.min(0).default(0),
    name_contains: classic_schemas/* string */.YjP().optional(),
    status: classic_schemas/* string */.YjP().optional(),
    remote_reconciled: queryBoolean.optional(),
    tag_value_ids: classic_schemas/* string */.YjP().optional(),
    image_version: classic_schemas/* string */.YjP().optional(),
    deployment_type: DeploymentType.optional(),
    deployment_ids: classic_schemas/* string */.YjP().optional()
});
const DeploymentList = classic_schemas/* object */.Ikc({ resources: lenientEntries(Deployment), offset: classic_schemas/* number */.aig().int() })
    .transform(({ resources: page, offset }) => ({ ...page, offset }));
// ---------------------------------------------------------------------------------------------
// Operations beyond the interface (docs/control-plane.md): revisions, redeploy, delete, logs
/** `GET /v2/deployments/{deployment_id}/revisions` query; `status` is comma-separated. */
const ListRevisionsQuery = classic_schemas/* object */.Ikc({
    limit: queryInt.min(1).max(vocabulary/* MAX_PAGE_SIZE */.H4).default(20),
    offset: queryInt.min(0).default(0),
    status: classic_schemas/* string */.YjP().optional(),
    remote_reconciled: queryBoolean.optional()
});
/** Revisions, newest first; `offset` is the next page's. */
const RevisionList = classic_schemas/* object */.Ikc({
    resources: classic_schemas/* array */.YOg(Revision),
    offset: classic_schemas/* number */.aig().int()
});
/** `DELETE /v2/deployments/{deployment_id}` query. */
const DeleteDeploymentQuery = classic_schemas/* object */.Ikc({
    delete_tracing_project: queryBoolean.default(false)
});
// ---------------------------------------------------------------------------------------------
// Error bodies
const ErrorDetail = classic_schemas/* object */.Ikc({ detail: classic_schemas/* string */.YjP() });
const ValidationErrorEntry = classic_schemas/* object */.Ikc({
    loc: classic_schemas/* array */.YOg(classic_schemas/* union */.KCZ([classic_schemas/* string */.YjP(), classic_schemas/* number */.aig().int()])),
    msg: classic_schemas/* string */.YjP(),
    type: classic_schemas/* string */.YjP(),
    input: classic_schemas/* unknown */.L5J().optional(),
    ctx: classic_schemas/* record */.g1P(classic_schemas/* string */.YjP(), classic_schemas/* unknown */.L5J()).optional()
});
const HTTPValidationError = classic_schemas/* object */.Ikc({ detail: classic_schemas/* array */.YOg(ValidationErrorEntry) });
// The revision and deployment logs, beyond the interface (docs/control-plane.md, "Operations"):
// the query of a page and the page.
const LOG_TYPES = ['build', 'deploy'];
const LOG_ORDERS = ['asc', 'desc'];
/** `GET /v2/deployments/{deployment_id}/revisions/{revision_id}/logs` query. */
const RevisionLogsQuery = classic_schemas/* object */.Ikc({
    type: classic_schemas/* enum */.k5n(LOG_TYPES),
    order: classic_schemas/* enum */.k5n(LOG_ORDERS).default('asc'),
    limit: queryInt.min(1).max(1000).default(50),
    offset: classic_schemas/* string */.YjP().optional(),
    level: classic_schemas/* string */.YjP().optional(),
    query: classic_schemas/* string */.YjP().optional(),
    start_time: classic_schemas/* string */.YjP().optional(),
    end_time: classic_schemas/* string */.YjP().optional()
});
/** Lines kept from one answer: the most that a request may ask for. */
const MAX_LOG_LINES = 1000;
const textOrNumber = classic_schemas/* union */.KCZ([classic_schemas/* string */.YjP(), classic_schemas/* number */.aig()])
    .nullish()
    .transform(v => (v === null || v === undefined ? null : String(v)));
/** One log line; `message` is what the build printed, untrusted, kept as it came. */
const RevisionLogEntry = classic_schemas/* object */.Ikc({
    /** Stable and unique per line where the service gives it: readers that follow a log dedupe on it. */
    id: textOrNumber.optional(),
    timestamp: textOrNumber,
    message: classic_schemas/* string */.YjP(),
    level: textOrNumber
});
const RevisionLogPage = classic_schemas/* object */.Ikc({
    logs: classic_schemas/* array */.YOg(RevisionLogEntry).transform(lines => lines.slice(0, MAX_LOG_LINES)),
    /** The cursor of the next page; null at the end. */
    next_offset: textOrNumber
});


/***/ })

};
