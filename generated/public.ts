/**
 * GENERATED FILE - DO NOT EDIT.
 * Source: specs/public.yaml, by openapi-typescript (make generate).
 */

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description 200 while the process runs (for liveness probes). No key, never audited, never
         *     rate-limited, no database access.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 200 when the instance should get traffic: the database answers (checked with a limit
         *     short enough that the probe answers within a second, so a hung or stopped database never
         *     hangs it), the instance has finished starting, every environment's configuration is
         *     loaded into memory, and the instance is not shutting down. 503 otherwise, naming what is
         *     not ready. While a process starts (after it has taken its port: the first start,
         *     `VEXIL_IMPORT_FILE`) this answers 503 `starting` and every request other than `/health`,
         *     `/ready` and `/metrics` waits until the start is complete, so none sees a half-started
         *     instance; then `snapshots loading` until every environment is in memory. On SIGTERM an
         *     instance answers 503 here at once and keeps serving for `VEXIL_DRAIN_MS` (default 5 s)
         *     before it stops. `redis` says whether Redis answers (detail only: an instance without
         *     Redis keeps serving). `database_host` (MySQL/MariaDB) says which of the database's hosts
         *     the instance uses and whether it is moving to another one. No key, never audited, never
         *     rate-limited.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description The instance's metrics in the Prometheus text exposition format (version 0.0.4): request
         *     durations by API, operation and status class, evaluations by reason, snapshot revisions
         *     and their age per environment, audit and telemetry buffers, server-sent event
         *     connections, rate-limit refusals, database queries, scheduler runs, webhook deliveries,
         *     and the process and event-loop metrics. Every name starts with `vexil_`; no label holds a
         *     flag key, a context value or a secret. Never audited, never rate-limited.
         *
         *     Open unless the server setting `VEXIL_METRICS_TOKEN` is set; then the request must carry
         *     `Authorization: Bearer <that token>` (401 otherwise). With `VEXIL_METRICS_PORT` set the
         *     metrics are served on that port only, and this path on the API port answers 404.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get this API description
         * @description Returns this OpenAPI document as a JSON object. Needs no key.
         */
        get: operations["getPublicApiDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Evaluate every flag of the environment
         * @description Evaluates every flag of the key's environment for the context in the context header (or
         *     without a context), ordered by flag key. Unavailable flags (no servable value) are left
         *     out unless the default-value header declares a default of the same type for them, which is
         *     then served with `resolved_by` `default`. Needs a server key: mobile and client keys get
         *     `401` `key_kind_not_allowed`. Each call records a "flag evaluated" event per flag.
         */
        get: operations["listEvaluatedFlags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flags/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate every flag of the environment (context in the body)
         * @description The twin of `GET /v1/flags` for clients that cannot send JSON in headers (most generated
         *     clients): the context and the declared defaults travel in the body (`EvaluationRequest`)
         *     instead of the context and default-value headers, and the answer is exactly that of
         *     `GET /v1/flags` for the same inputs: every flag of the key's environment evaluated for
         *     the context (or without one), ordered by flag key, unavailable flags left out unless a
         *     default of the same type is declared for them. Needs a server key (mobile and client keys
         *     get `401` `key_kind_not_allowed`). Records the same "flag evaluated" events and the same `flag.evaluated` audit
         *     entry. Reads no context or default-value header. Without a body (or with `{}`) it
         *     evaluates without a context and without declared defaults.
         */
        post: operations["evaluateFlags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flags/{flagKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Evaluate one flag
         * @description Evaluates one flag of the key's environment for the context in the context header (or
         *     without a context). A flag key unknown in the environment gets `404` `Feature flag not
         *     found.`; so does a flag with no servable value, unless the default-value header declares a
         *     default of the same type for it, which is then served. Needs a server key: mobile and
         *     client keys get `401` `key_kind_not_allowed`. Records a "flag evaluated" event.
         */
        get: operations["getEvaluatedFlag"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flags/{flagKey}/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate one flag (context in the body)
         * @description The twin of `GET /v1/flags/{flagKey}` for clients that cannot send JSON in headers: the
         *     context and the declared defaults travel in the body (`EvaluationRequest`), and the
         *     answer is exactly that of `GET /v1/flags/{flagKey}` for the same inputs. A flag key
         *     unknown in the environment gets `404` `Feature flag not found.`; so does a flag with no
         *     servable value, unless the body declares a default of the same type for it. Needs a
         *     server key (mobile and client keys get `401` `key_kind_not_allowed`). Records the same "flag evaluated" event
         *     and `flag.evaluated` audit entry. Reads no context or default-value header.
         */
        post: operations["evaluateFlag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flags/{flagKey}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report that a flag was used
         * @description Records that application code evaluated the flag (locally, through an SDK, or otherwise)
         *     `count` times (default 1). Staleness is measured against use. The optional `context` is
         *     recorded for the context-attribute suggestions of the rule editor. Accepts any key kind.
         *     The body is optional; without a body (or with `{}`) one use is recorded. A flag key unknown
         *     in the environment gets `404` `Feature flag not found.` Usage is buffered and written in
         *     batches, so insights may lag by a few seconds.
         */
        post: operations["recordFlagUsage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the environment payload for SDKs
         * @description Returns the payload an SDK caches and evaluates locally. Accepts any key kind.
         *
         *     - Server keys get `kind: server`: the environment's compiled configuration
         *       (`EnvironmentConfig`), every flag with its default value, serving and previous published
         *       targets, rules and rollout, and the environment's segments. Context and default-value
         *       headers are checked (`400` when invalid) but not used.
         *     - Mobile and client keys get `kind: client`: every flag with `include_in_mobile`
         *       (mobile keys) or `include_in_client` (client keys) evaluated for the context in the
         *       context header (or without a context), ordered by key. Unavailable flags are left out
         *       unless the default-value header declares a default of the same type for them.
         *
         *     The response carries an `ETag` (also in the body as `etag`). It changes when the
         *     environment's revision changes and, for mobile and client keys, when the context or
         *     declared defaults differ. Send it back in `If-None-Match` to get `304 Not Modified`
         *     while nothing changed. Each `200` records a "payload retrieved" event for the
         *     environment's flags.
         */
        get: operations["getPayload"];
        put?: never;
        /**
         * Get the environment payload for SDKs (context in the body)
         * @description The twin of `GET /v1/payload` for clients that cannot send JSON in headers: the context
         *     and the declared defaults travel in the body (`EvaluationRequest`), and the answer is
         *     exactly that of `GET /v1/payload` for the same key and inputs, with the same `ETag`
         *     (`If-None-Match` works alike: `304` while nothing changed). Accepts any key kind; a
         *     server key gets the compiled configuration and its body is checked (`400` when invalid)
         *     but not used. Each `200` records a "payload retrieved" event and the
         *     `payload.retrieved` audit entry. Reads no context or default-value header.
         */
        post: operations["getPayloadForContext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream payload change notifications
         * @description A Server-Sent Events stream (`text/event-stream`) that announces the ETag of the payload
         *     `GET /v1/payload` would return for the same key and headers. Accepts any key kind; mobile
         *     and client keys may send the same context and default-value headers as for
         *     `GET /v1/payload`.
         *
         *     - On connect the server sends one `etag` event with the current ETag, then another each
         *       time it changes (an environment change may announce a new ETag even when the evaluated
         *       values did not change).
         *     - Each `etag` event has `event: etag` and `data:` a JSON object `{"etag": "<ETag>"}`,
         *       where `<ETag>` is exactly the `ETag` header value (quotes included).
         *     - A comment line (`: heartbeat`) is sent every 15 seconds to keep the connection open.
         *     - The server ends the stream when it shuts down or the key is revoked; clients reconnect
         *       with backoff and compare the announced ETag with their cached payload's.
         *     - Events carry no `id` and no `retry` field: a reconnecting client is sent the current
         *       ETag at once, so there is nothing to resume.
         *
         *     A client that only wants the current ETag reads the first event and closes the
         *     connection; contract tests do the same (Schemathesis reads a bounded number of events).
         */
        get: operations["streamPayloadChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/evaluate/flags/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate one flag (OFREP)
         * @description OFREP single-flag evaluation. Accepts any key kind; mobile and client keys can evaluate
         *     only flags with `include_in_mobile` / `include_in_client` (others are `FLAG_NOT_FOUND`).
         *
         *     The context maps to a Vexil context: `targetingKey` is the identifier, `contextType`
         *     (default `user`) the type, and every other member an attribute whose values are the
         *     member converted to strings (booleans `true`/`false`, numbers in JSON form, objects as
         *     compact JSON; an array gives one value per element; `null` members are ignored).
         *     The protocol requires a body: `{}`, an absent `context` or an empty context evaluates
         *     without a context. A `200` records a "flag evaluated" event for the flag, and the
         *     context's type and attributes for the rule editor's suggestions.
         *
         *     Members of the body other than `context` are ignored, as the protocol allows. The `200`
         *     carries `Cache-Control: private, no-cache` and `Vary` with the key headers.
         *
         *     Errors:
         *     - `400` `PARSE_ERROR`: no body, or the body is not JSON or not an object.
         *     - `400` `INVALID_CONTEXT`: `context` is not an object, or `targetingKey` / `contextType`
         *       is not a string of the allowed length (`targetingKey` at most 1000 characters, empty
         *       allowed; `contextType` 1 to 200).
         *     - `400` `TARGETING_KEY_MISSING`: the context has members but no `targetingKey`.
         *     - `404` `FLAG_NOT_FOUND`: the key is unknown in the environment, excluded for the key's
         *       platform, or the flag has no servable value.
         */
        post: operations["ofrepEvaluateFlag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/evaluate/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate all flags (OFREP bulk)
         * @description OFREP bulk evaluation: evaluates every flag available to the key (server keys: every
         *     flag; mobile and client keys: flags with `include_in_mobile` / `include_in_client`) for
         *     the context, ordered by key. Flags with no servable value are left out. The context is
         *     read as for `POST /ofrep/v1/evaluate/flags/{key}`; a context error is a `400` with
         *     `OfrepBulkEvaluationFailure`. An item is an `OfrepEvaluationFailure` (`GENERAL`) when that
         *     one flag could not be evaluated. A `200` records a "flag evaluated" event for every flag
         *     available to the key; a `304` records nothing.
         *
         *     The `200` carries an `ETag` that changes when the environment's revision, the key or the
         *     context changes; send it back in `If-None-Match` to get `304 Not Modified` while nothing
         *     changed (`*` is not a match: the ETag is per context). The `200` and the `304` carry
         *     `Cache-Control: private, no-cache` and `Vary` with the key headers; each flag's
         *     `metadata.revision` is that flag's own revision.
         *
         *     `flagConfigEtag` and `flagConfigLastModified` are the protocol's re-fetch metadata: they
         *     do not change the answer, but `flagConfigLastModified` must be Unix seconds or a date-time
         *     (anything else is a `400` `PARSE_ERROR`).
         */
        post: operations["ofrepEvaluateFlags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The flag's type; immutable.
         * @enum {string}
         */
        FlagType: "boolean" | "number" | "string" | "json";
        /**
         * @description Why the value was served: `rule` (a targeting rule matched), `rollout` (a partial rollout
         *     chose the newest published target and no rule matched), `target` (the published target's
         *     value), `default` (no published target: the flag's default value, or the request's
         *     declared default for an unavailable flag), `prerequisite` (a prerequisite of the chosen
         *     target failed: the flag's default value).
         * @enum {string}
         */
        ResolvedBy: "rule" | "rollout" | "target" | "default" | "prerequisite";
        /**
         * @description Any JSON value, typed by the flag: boolean, number, string, or (json flags) any JSON
         *     document, including objects, arrays and null.
         */
        JsonValue: unknown;
        /**
         * @description The actor a flag is evaluated for. Sent as JSON text in the `X-VEXIL-CONTEXT` (alias
         *     `C`) header, or in a `UsageReport` body. Every attribute value is a string: convert
         *     booleans, numbers and enums to strings before sending.
         */
        Context: {
            /** @description Actor category, e.g. user, organization, service. */
            type: string;
            /** @description Stable unique identifier; used for matching and percentage bucketing. */
            identifier: string;
            /** @description Display text. */
            name?: string;
            attributes?: components["schemas"]["ContextAttribute"][];
        };
        /** @description One named attribute of a context, with one or more string values. */
        ContextAttribute: {
            key: string;
            values: components["schemas"]["ContextAttributeValue"][];
        };
        /** @description One value of a context attribute (always a string). */
        ContextAttributeValue: {
            value: string;
        };
        /**
         * @description A default value the application serves for a flag when the flag is unavailable. Sent as
         *     a JSON array of these in the `X-VEXIL-DEFAULT-VALUE` header (aliases `X-DEFAULT-VALUE`,
         *     `D`), or in the `default_values` member of an `EvaluationRequest` body. `value` must fit
         *     `type`: a JSON boolean for `boolean`, a number for `number`, a string for `string`, any
         *     JSON value for `json`; `type` tells the four forms apart.
         */
        DefaultValueDeclaration: components["schemas"]["BooleanDefaultValue"] | components["schemas"]["NumberDefaultValue"] | components["schemas"]["StringDefaultValue"] | components["schemas"]["JsonDefaultValue"];
        /** @description The declared default of a `boolean` flag. */
        BooleanDefaultValue: {
            /** @description The flag key. */
            key: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "boolean";
            value: boolean;
        };
        /** @description The declared default of a `number` flag. */
        NumberDefaultValue: {
            /** @description The flag key. */
            key: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "number";
            /** Format: double */
            value: number;
        };
        /** @description The declared default of a `string` flag. */
        StringDefaultValue: {
            /** @description The flag key. */
            key: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "string";
            value: string;
        };
        /** @description The declared default of a `json` flag (any JSON value). */
        JsonDefaultValue: {
            /** @description The flag key. */
            key: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "json";
            value: components["schemas"]["JsonValue"];
        };
        /**
         * @description The served value wrapped in an object with exactly one member, named after the flag's
         *     type (`type` of the `EvaluatedFlag`): `{"boolean": true}`, `{"number": 50}`,
         *     `{"string": "Spring sale"}`, `{"json": {"primary": "#0055ff"}}`. The other three members
         *     are never present. Described as one object with four optional members (rather than a
         *     `oneOf` of four objects) so that generated clients read it without ambiguity: read the
         *     member named by `type`.
         */
        EvaluatedFlagValue: {
            /** @description The value of a `boolean` flag. */
            boolean?: boolean;
            /**
             * Format: double
             * @description The value of a `number` flag.
             */
            number?: number;
            /** @description The value of a `string` flag. */
            string?: string;
            json?: components["schemas"]["JsonValue"];
        };
        /** @description A flag evaluated for a context. */
        EvaluatedFlag: {
            key: string;
            name: string;
            type: components["schemas"]["FlagType"];
            value: components["schemas"]["EvaluatedFlagValue"];
            split?: components["schemas"]["EvaluationSplit"];
        };
        /**
         * @description Present only when a weighted split chose the value: which split (`rule`: the position of
         *     the matching rule among the target's rules; null: the target's base split), the served
         *     value (`variant`, its display form) and its share (`weight`, thousandths of a percent).
         */
        EvaluationSplit: {
            rule: number | null;
            variant: string;
            weight: number;
        };
        EvaluatedFlagItem: {
            flag: components["schemas"]["EvaluatedFlag"];
        };
        EvaluatedFlagListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["EvaluatedFlagItem"][];
        };
        EvaluatedFlagResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["EvaluatedFlagItem"];
        };
        /**
         * @description The inputs of an evaluation sent in a body (the POST twins of `GET /v1/flags`,
         *     `GET /v1/flags/{flagKey}` and `GET /v1/payload`): the same documents as the context and
         *     default-value headers, as JSON values rather than JSON text. Both members are optional.
         */
        EvaluationRequest: {
            context?: components["schemas"]["Context"];
            /**
             * @description The defaults the application serves when a flag is unavailable (the content of the
             *     `X-VEXIL-DEFAULT-VALUE` header).
             */
            default_values?: components["schemas"]["DefaultValueDeclaration"][];
        };
        /** @description How many times a flag was used, and optionally for which context. */
        UsageReport: {
            /** @description Number of uses to record; 1 when absent. */
            count?: number;
            context?: components["schemas"]["Context"];
            /**
             * @description Other contexts that received a value of one of the flag's weighted splits since the
             *     last report (an SDK evaluating locally sends up to 100 distinct ones per report and
             *     flag). Each is counted once in the flag's exposure counts, by the value the server
             *     evaluates for it; they add nothing to `count`.
             */
            contexts?: components["schemas"]["Context"][];
        };
        SuccessStatus: {
            /** @enum {string} */
            status: "success";
        };
        /**
         * @description The machine-readable cause of an error, stable across versions (the message is for
         *     people). `validation_failed`: the request does not fit this document (field-keyed 422);
         *     `invalid_query`: a query parameter does not fit this document. Every other 422 is input
         *     that fits this document but is refused by a rule no schema can state, so a client can
         *     tell the two apart: `invalid_cursor` (a cursor this list never issued),
         *     `idempotency_key_reused` (the Idempotency-Key came with another body), `already_exists`
         *     (a key, email or value is taken), `reference_not_found` (the body names a project,
         *     environment, value or segment that does not exist where it must), `invalid_combination`
         *     (fields valid alone but not together, such as a rollout percentage for an automatic
         *     rollout or `from` after `to`), `date_not_in_future` (a date-time that must lie ahead),
         *     `value_type_mismatch` (a value that does not fit the flag's type or size limits),
         *     `comment_required` (the environment requires a publish comment),
         *     `confirmation_required` (the environment requires typed confirmation, or it was
         *     mistyped), `url_not_allowed` (a webhook URL the server's settings refuse),
         *     `invalid_credentials` (a wrong current password; a failed sign-in is a 401),
         *     `value_in_use` (a value still published or referenced) and `state_conflict` (the
         *     resource's current state does not allow the change). `missing_token`,
         *     `invalid_token`, `expired_token`, `missing_api_key`, `invalid_api_key`,
         *     `invalid_credentials`, `key_kind_not_allowed` (an environment key of a kind the
         *     operation does not accept): 401s; `forbidden`, `scope_missing`, `csrf_failed`,
         *     `password_change_required` (a console session signed in with a temporary password):
         *     403s; `idempotency_in_flight`: 409; `database_unavailable`: 503.
         * @enum {string}
         */
        ErrorCode: "bad_request" | "missing_token" | "invalid_token" | "expired_token" | "missing_api_key" | "invalid_api_key" | "invalid_credentials" | "forbidden" | "scope_missing" | "csrf_failed" | "password_change_required" | "key_kind_not_allowed" | "not_found" | "method_not_allowed" | "idempotency_in_flight" | "payload_too_large" | "unsupported_media_type" | "validation_failed" | "invalid_query" | "invalid_cursor" | "idempotency_key_reused" | "state_conflict" | "value_in_use" | "confirmation_required" | "already_exists" | "reference_not_found" | "invalid_combination" | "date_not_in_future" | "value_type_mismatch" | "comment_required" | "url_not_allowed" | "rate_limited" | "not_implemented" | "internal_error" | "database_unavailable";
        /** @description An OpenAPI 3.0.3 document (only its top-level members are described here). */
        OpenApiDocument: {
            openapi: string;
            info: {
                [key: string]: unknown;
            };
            paths: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Health: {
            /** @enum {string} */
            status: "ok";
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not_ready";
            checks: components["schemas"]["ReadinessChecks"];
            redis: components["schemas"]["RedisState"];
            database_host?: components["schemas"]["DatabaseHostState"];
            /** @description What is not ready, in words. */
            reasons?: string[];
        };
        /**
         * @description MySQL/MariaDB only (absent on SQLite): which of `DATABASE_URL`'s hosts this instance's
         *     new connections go to. `DATABASE_URL` may list several hosts separated by commas
         *     (`mysql://user:password@node1:3306,node2:3306,node3:3306/vexil`, a Galera cluster's
         *     nodes): when a host refuses, cannot be reached, or is a Galera node outside the primary
         *     component, new connections go to the next host in the list, wrapping around.
         */
        DatabaseHostState: {
            /** @description The host (`host:port`) new connections go to, the last one that accepted a connection. */
            host: string;
            /**
             * @description `connected`: the last connection attempt succeeded. `reconnecting`: a host failed and
             *     the next ones are being tried (`last_failure` says which and why). `unreachable`: no
             *     host accepted the last attempt.
             * @enum {string}
             */
            state: "connected" | "reconnecting" | "unreachable";
            /** @description Every host of `DATABASE_URL`, in the order they are tried. */
            hosts: string[];
            /** @description Whether the host is a Galera node (each connection then reads with `wsrep_sync_wait=1`, so it sees every write acknowledged through any node). */
            galera: boolean;
            /** @description While not connected, the host that failed last and why (a driver code or a message; never credentials). */
            last_failure?: string;
        };
        /**
         * @description Whether Redis (`REDIS_URL`) answers this instance, as its background exchange of
         *     rate-limit counts last found it (every `VEXIL_RATE_LIMIT_SYNC_MS`, default 200 ms).
         *     `up`: it answered within `VEXIL_REDIS_TIMEOUT_MS` (default 500 ms), so rate-limit counts
         *     are shared between instances. `down`: it did not answer in time or cannot be reached;
         *     each instance then limits on its own counts, and changes reach the other instances at
         *     their next revision poll. No request waits on Redis either way, so this never makes an
         *     instance not ready. `not_configured`: no `REDIS_URL`.
         * @enum {string}
         */
        RedisState: "up" | "down" | "not_configured";
        /** @description Each readiness condition and whether it holds. */
        ReadinessChecks: {
            /** @description The database answered within the check's budget (the probe answers within a second). */
            database: boolean;
            /** @description Every environment's configuration is loaded into memory (false while the instance starts). */
            snapshots: boolean;
            /** @description The instance has finished starting and is not shutting down. */
            accepting_traffic: boolean;
        };
        /** @description The body of every error of the `/v1` operations. */
        ErrorEnvelope: {
            /** @enum {string} */
            status: "error";
            message: string;
            code: components["schemas"]["ErrorCode"];
            /** @description With `key_kind_not_allowed` only: the kinds of environment key the operation accepts. */
            accepted_kinds?: ("server" | "mobile" | "client")[];
        };
        /**
         * @description The compiled configuration of one environment: the input of the evaluation engine and the
         *     `config` of a server-key payload.
         */
        EnvironmentConfig: {
            /** @description The environment's revision; increases with every change that can alter what it serves. */
            revision: number;
            /** @description Every flag of the project, ordered by key. */
            flags: components["schemas"]["CompiledFlag"][];
            /** @description Every segment of the project, ordered by key. */
            segments: components["schemas"]["CompiledSegment"][];
        };
        /**
         * @description One flag as the evaluation engine reads it. `serving` is the newest published target in
         *     this environment (null when none); `previous` is the published target before it, set
         *     only while `rollout` is set (and then null when there was none), null otherwise.
         */
        CompiledFlag: {
            key: string;
            name: string;
            type: components["schemas"]["FlagType"];
            include_in_mobile: boolean;
            include_in_client: boolean;
            default: components["schemas"]["CompiledDefaultValue"];
            serving: components["schemas"]["CompiledTarget"];
            previous: components["schemas"]["CompiledTarget"];
            rollout: components["schemas"]["CompiledRollout"];
        };
        /** @description The flag's default value; null when the flag has no values. */
        CompiledDefaultValue: {
            value: components["schemas"]["JsonValue"];
        } | null;
        /**
         * @description The rollout of a flag's `serving` target: set while it is active or paused and not
         *     completed; null otherwise.
         */
        CompiledRollout: {
            percentage: number;
        } | null;
        /** @description A published target (`serving` or `previous` of a `CompiledFlag`); null where there is none. */
        CompiledTarget: {
            value: components["schemas"]["JsonValue"];
            /** @description The target's rules in position order. */
            rules: components["schemas"]["CompiledRule"][];
            split?: components["schemas"]["CompiledSplit"];
            /**
             * @description Flags that must serve one of the listed values for this target to apply, checked in
             *     this order before the rules (see Evaluation order). Absent or empty: none.
             */
            prerequisites?: components["schemas"]["CompiledPrerequisite"][];
        } | null;
        /**
         * @description A prerequisite of a target: the flag `flag_key` of this configuration, evaluated for the
         *     same context, must serve a value equal (as JSON) to one of `values`.
         */
        CompiledPrerequisite: {
            flag_key: string;
            values: components["schemas"]["JsonValue"][];
        };
        /** @description A targeting rule; it matches when all its criteria match. */
        CompiledRule: {
            value: components["schemas"]["JsonValue"];
            criteria: components["schemas"]["CompiledCriterion"][];
            split?: components["schemas"]["CompiledSplit"];
        };
        /**
         * @description A weighted split of a rule or a target's base (see "Evaluation order", step 4a): present
         *     only where one is configured. `value` of the rule or target is then served only to
         *     contexts without a bucketing value.
         */
        CompiledSplit: {
            /** @description The context attribute whose first value buckets the context; null for the context identifier. */
            attribute: string | null;
            /** @description The split's values in their configured order; their weights sum to 100000. */
            shares: components["schemas"]["CompiledSplitShare"][];
        } | null;
        /** @description One value of a split. */
        CompiledSplitShare: {
            /** @description The value's display form; it names the value in results and salts its bucketing. */
            variant: string;
            value: components["schemas"]["JsonValue"];
            /** @description Thousandths of a percent. */
            weight: number;
        };
        CompiledCriterion: {
            /** @enum {string} */
            selector: "attribute" | "context" | "segment";
            /** @description Attribute name (selector attribute) or required context type (selector context). */
            sub_selector: string | null;
            /** @enum {string} */
            comparer: "equal" | "notequal" | "in" | "notin" | "gt" | "gte" | "lt" | "lte" | "isnull" | "notnull" | "contains" | "notcontains" | "startswith" | "endswith" | "notstartswith" | "notendswith" | "semver_eq" | "semver_lt" | "semver_gt" | "semver_lte" | "semver_gte" | "before" | "after" | "matches";
            values: string[];
        };
        CompiledSegment: {
            key: string;
            /** @description Identifiers that are always members. */
            included: string[];
            /** @description Identifiers that are never members (unless included). */
            excluded: string[];
            /** @description A context not listed is a member when all criteria of any rule match. */
            rules: components["schemas"]["CompiledSegmentRule"][];
        };
        /** @description A segment rule; it matches when all its criteria match. */
        CompiledSegmentRule: {
            criteria: components["schemas"]["CompiledCriterion"][];
        };
        /** @description The environment the key belongs to. */
        PayloadEnvironment: {
            ulid: string;
            key: string;
        };
        /** @description The payload for server keys. */
        ServerPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "server";
            /** @description Equal to the response's `ETag` header value. */
            etag: string;
            revision: number;
            environment: components["schemas"]["PayloadEnvironment"];
            config: components["schemas"]["EnvironmentConfig"];
        };
        /** @description A flag evaluated for the request's context (mobile and client keys). */
        ClientFlag: {
            key: string;
            name: string;
            type: components["schemas"]["FlagType"];
            value: components["schemas"]["JsonValue"];
            resolved_by: components["schemas"]["ResolvedBy"];
            split?: components["schemas"]["EvaluationSplit"];
        };
        /** @description The payload for mobile and client keys. */
        ClientPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "client";
            /** @description Equal to the response's `ETag` header value. */
            etag: string;
            revision: number;
            environment: components["schemas"]["PayloadEnvironment"];
            flags: components["schemas"]["ClientFlag"][];
        };
        PayloadResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Payload"];
        };
        /**
         * @description The payload of the key's kind, told apart by `kind`: `server` (server keys) or `client`
         *     (mobile and client keys).
         */
        Payload: components["schemas"]["ServerPayload"] | components["schemas"]["ClientPayload"];
        /**
         * @description One event of `GET /v1/stream`, as a Server-Sent Events parser reads it (comment lines
         *     such as `: heartbeat` are not events). `event` is always `etag`; `data` is the compact
         *     JSON text of an object with one member, `etag`: exactly the `ETag` header value
         *     `GET /v1/payload` now answers for the stream's key and headers, quotes included. On the
         *     wire: `event: etag`, `data: {"etag":"\"srv-42-7d1f0c9a\""}`, a blank line.
         * @example {
         *       "event": "etag",
         *       "data": "{\"etag\":\"\\\"srv-42-7d1f0c9a\\\"\"}"
         *     }
         */
        PayloadStreamEvent: {
            /** @enum {string} */
            event: "etag";
            /** @description Compact JSON `{"etag": "<ETag>"}`; the ETag is an opaque quoted tag. */
            data: string;
        };
        /**
         * @description OFREP evaluation request (single and bulk). Members other than `context` are ignored, as
         *     the protocol allows.
         */
        OfrepEvaluationRequest: {
            context?: components["schemas"]["OfrepEvaluationContext"];
        } & {
            [key: string]: unknown;
        };
        /**
         * @description OFREP evaluation context. `targetingKey` becomes the Vexil context identifier,
         *     `contextType` the context type (default `user`), and every other member an attribute
         *     (values converted to strings; arrays give several values; null members ignored).
         *     Either empty (evaluation without a context) or with a `targetingKey`: a context with
         *     members but no `targetingKey` gets `400` `TARGETING_KEY_MISSING`. An empty
         *     `targetingKey` is a context without an identifier: its type and attributes are
         *     matched as sent, and it is never inside a partial rollout.
         */
        OfrepEvaluationContext: {
            targetingKey?: string;
            contextType?: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description An OFREP evaluation context that has a `targetingKey` (of any value here: its type is
         *     checked by `OfrepEvaluationContext`). A context with members must be one. It states no
         *     type: a context that is not an object is refused by `OfrepEvaluationContext` as not an
         *     object, not as a context without a `targetingKey`.
         */
        OfrepContextWithTargetingKey: {
            targetingKey: unknown;
        } & {
            [key: string]: unknown;
        };
        /** @description OFREP evaluation success. */
        OfrepEvaluationSuccess: {
            key: string;
            /**
             * @description An OFREP reason: `TARGETING_MATCH` (`resolved_by` rule), `SPLIT` (rollout, or a
             *     weighted split chose the value, whatever `resolved_by`), `STATIC`
             *     (target, and default: the flag has no published target in this environment, so its
             *     default value is served without any evaluation), `PREREQUISITE_FAILED` (prerequisite:
             *     a prerequisite of the chosen target failed, so the flag's default value is served).
             *     The protocol has no `DEFAULT` reason; `metadata.resolved_by` tells the two `STATIC`
             *     cases apart.
             * @enum {string}
             */
            reason: "TARGETING_MATCH" | "SPLIT" | "STATIC" | "PREREQUISITE_FAILED";
            /**
             * @description The served value in display form: `true`/`false`, the number, the string itself, or
             *     compact JSON for json flags.
             */
            variant: string;
            value: components["schemas"]["JsonValue"];
            metadata: components["schemas"]["OfrepFlagMetadata"];
        };
        /**
         * @description `resolved_by` (Vexil's resolution), `type` (the flag type) and `revision` (the flag's
         *     own revision in this environment), and `split_weight` when a weighted split chose the
         *     value. OFREP allows further members whose values are booleans, strings or numbers.
         */
        OfrepFlagMetadata: {
            resolved_by: components["schemas"]["ResolvedBy"];
            type: components["schemas"]["FlagType"];
            /**
             * @description The environment revision at which what this flag serves in this environment last
             *     changed: its values, name, platforms, published targets, rules or rollout, a
             *     segment its published rules use, or a flag its published targets require
             *     (prerequisites, and theirs in turn), whose change can change this flag's answer.
             *     Changes to other flags leave it as it is, so a client can tell which flags changed. `0` when the flag has not changed since the
             *     environment was created (or since before Vexil recorded per-flag changes).
             */
            revision: number;
            /**
             * @description Present only when a weighted split chose the value: the served value's weight in
             *     thousandths of a percent (100000 is 100 %).
             */
            split_weight?: number;
        };
        /**
         * @description OFREP evaluation failure of one flag: `FLAG_NOT_FOUND` (404), `PARSE_ERROR`,
         *     `INVALID_CONTEXT`, `TARGETING_KEY_MISSING` (400), `GENERAL` (a failed item of a bulk
         *     evaluation).
         */
        OfrepEvaluationFailure: {
            key: string;
            /** @enum {string} */
            errorCode: "PARSE_ERROR" | "TARGETING_KEY_MISSING" | "INVALID_CONTEXT" | "FLAG_NOT_FOUND" | "GENERAL";
            errorDetails: string;
        };
        /** @description OFREP bulk evaluation result; each item is a success or a failure. */
        OfrepBulkEvaluationSuccess: {
            flags: components["schemas"]["OfrepBulkEvaluationItem"][];
        };
        /** @description One flag of a bulk evaluation; a success or a failure. */
        OfrepBulkEvaluationItem: components["schemas"]["OfrepEvaluationSuccess"] | components["schemas"]["OfrepEvaluationFailure"];
        /** @description OFREP bulk evaluation failure (the whole request). */
        OfrepBulkEvaluationFailure: {
            /** @enum {string} */
            errorCode: "PARSE_ERROR" | "TARGETING_KEY_MISSING" | "INVALID_CONTEXT" | "GENERAL";
            errorDetails: string;
        };
        /** @description OFREP general error (401, 403, 413, 415, 429, 500). */
        OfrepGeneralError: {
            errorDetails: string;
        };
    };
    responses: {
        /** @description The request could not be read (for example a malformed header). */
        BadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Bad request.",
                 *       "code": "bad_request"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The context header is present but cannot be decoded (`Context was supplied but is
         *     invalid.`), or the default-value header is present but cannot be decoded or declares a
         *     value that does not fit its type (`Default values were supplied but are invalid.`).
         */
        BadHeaders: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The body is not valid JSON (`Request body is not valid JSON.`), its `context` does not
         *     match `Context` (`Context was supplied but is invalid.`), or it otherwise does not match
         *     `UsageReport` (`Request body is invalid.`).
         */
        BadUsageRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The body of an evaluation twin cannot be used: its `context` does not match `Context`
         *     (`Context was supplied but is invalid.`), its `default_values` do not match or declare a
         *     value that does not fit its type (`Default values were supplied but are invalid.`), it is
         *     not JSON (`Request body is not valid JSON.`), or it otherwise does not match
         *     `EvaluationRequest` (`Request body is invalid.`).
         */
        BadEvaluationRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The key is missing, unknown or revoked (`missing_api_key`, `invalid_api_key`), or of a
         *     kind the operation does not accept (`key_kind_not_allowed`, with `accepted_kinds`). The
         *     message is always `Invalid API key provided.`; `WWW-Authenticate` names the key header.
         */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Invalid API key provided.",
                 *       "code": "invalid_api_key"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The flag key is unknown in the key's environment; for evaluation also a flag with no
         *     servable value and no declared default of its type.
         */
        FlagNotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Feature flag not found.",
                 *       "code": "not_found"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The request body is larger than the limit (1 MB by default). */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Request body is too large.",
                 *       "code": "payload_too_large"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description A request body was sent with a content type other than `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Content-Type must be application/json.",
                 *       "code": "unsupported_media_type"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The client IP address exceeded the rate limit. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Rate limit exceeded.",
                 *       "code": "rate_limited"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The request headers are larger than the server accepts (64 KB in total by default, `VEXIL_MAX_HEADER_BYTES`). Sent by the HTTP
         *     layer before the request is read: no body.
         */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Not modified: an ETag in `If-None-Match` matches the current one. No body. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description Not modified: an ETag in `If-None-Match` matches the current one for this key and
         *     context. No body; the headers a `200` would carry.
         */
        OfrepNotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "Cache-Control": components["headers"]["OfrepCacheControl"];
                Vary: components["headers"]["OfrepVary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description Unauthorized: the key is missing, unknown or revoked. The body (optional in OFREP) is an
         *     `OfrepGeneralError`; `WWW-Authenticate` names the `X-API-Key` header.
         */
        OfrepUnauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorDetails": "Invalid API key provided."
                 *     }
                 */
                "application/json": components["schemas"]["OfrepGeneralError"];
            };
        };
        /**
         * @description Forbidden, as OFREP defines it: a valid key that may not evaluate. Every key kind may use
         *     OFREP, so this version of Vexil does not send it; it is listed for protocol compatibility.
         */
        OfrepForbidden: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorDetails": "This key may not evaluate flags."
                 *     }
                 */
                "application/json": components["schemas"]["OfrepGeneralError"];
            };
        };
        /** @description The request body is larger than the limit (1 MB by default). */
        OfrepPayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorDetails": "Request body is too large."
                 *     }
                 */
                "application/json": components["schemas"]["OfrepGeneralError"];
            };
        };
        /** @description A request body was sent with a content type other than `application/json`. */
        OfrepUnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorDetails": "Content-Type must be application/json."
                 *     }
                 */
                "application/json": components["schemas"]["OfrepGeneralError"];
            };
        };
        /** @description The client IP address exceeded the rate limit. */
        OfrepTooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorDetails": "Rate limit exceeded."
                 *     }
                 */
                "application/json": components["schemas"]["OfrepGeneralError"];
            };
        };
        /** @description The server failed unexpectedly. */
        OfrepInternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorDetails": "Internal server error."
                 *     }
                 */
                "application/json": components["schemas"]["OfrepGeneralError"];
            };
        };
    };
    parameters: {
        /**
         * @description Key of a flag of the key's environment's project. A value that does not match the flag
         *     key pattern cannot name a flag and gets `404` `Feature flag not found.`
         * @example checkout-v2
         */
        FlagKey: string;
        /**
         * @description Key of the flag to evaluate. A value that does not match the flag key pattern cannot name
         *     a flag and gets `404` `FLAG_NOT_FOUND`.
         * @example checkout-v2
         */
        OfrepFlagKey: string;
        /**
         * @description The evaluation context: JSON text of a `Context` object (see
         *     `#/components/schemas/Context`), for example
         *     `{"type":"user","identifier":"user-42","attributes":[{"key":"plan","values":[{"value":"pro"}]}]}`.
         *     Invalid JSON or a value not matching `Context` gets `400`
         *     `Context was supplied but is invalid.` Takes precedence over `C`. Non-ASCII text is sent
         *     either as JSON `\u` escapes or as raw UTF-8 bytes; bytes that are not UTF-8 get that
         *     `400` too.
         */
        ContextHeader: string;
        /**
         * @description Short alias of `X-VEXIL-CONTEXT`: JSON text of a `Context` object. Used only when
         *     `X-VEXIL-CONTEXT` is absent.
         */
        ContextHeaderAlias: string;
        /**
         * @description The defaults the application serves when a flag is unavailable: JSON text of an array of
         *     `DefaultValueDeclaration` objects (see `#/components/schemas/DefaultValueDeclaration`),
         *     for example `[{"key":"checkout-v2","type":"boolean","value":false}]`. Invalid JSON, a
         *     value not matching the schema, or a value that does not fit its declared type gets `400`
         *     `Default values were supplied but are invalid.` Takes precedence over `X-DEFAULT-VALUE`
         *     and `D`. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes; bytes
         *     that are not UTF-8 get that `400` too.
         */
        DefaultValueHeader: string;
        /**
         * @description Alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of `DefaultValueDeclaration`.
         *     Used only when `X-VEXIL-DEFAULT-VALUE` is absent. Non-ASCII text is sent either as JSON
         *     `\u` escapes or as raw UTF-8 bytes.
         */
        DefaultValueHeaderAlias: string;
        /**
         * @description Short alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of
         *     `DefaultValueDeclaration`. Used only when `X-VEXIL-DEFAULT-VALUE` and `X-DEFAULT-VALUE`
         *     are absent. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes.
         */
        DefaultValueHeaderShort: string;
        /**
         * @description One or more ETags from earlier responses (comma-separated), or `*`. When one of them
         *     equals the current ETag (weak comparison) or the value is `*`, the response is
         *     `304 Not Modified` without a body.
         * @example "srv-42-7d1f0c9a"
         */
        IfNoneMatch: string;
        /** @description The protocol's re-fetch metadata (an ETag announced by a change event); accepted and not used. */
        OfrepFlagConfigEtag: string;
        /**
         * @description The protocol's re-fetch metadata (when the configuration last changed, announced by a
         *     change event): Unix seconds or a date-time; accepted and not used. Any other text is a
         *     `400` `PARSE_ERROR`.
         * @example 1771622898
         */
        OfrepFlagConfigLastModified: string;
        /**
         * @description One or more ETags of earlier bulk evaluations (comma-separated). When one of them equals
         *     the current ETag for this key and context (weak comparison), the response is
         *     `304 Not Modified` without a body. `*` matches nothing here: the ETag is per context, so
         *     `*` cannot say that the client holds this context's evaluation, and the flags are
         *     evaluated as without the header.
         * @example "ofrep-42-5be01c7a"
         */
        OfrepIfNoneMatch: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Requests allowed per minute for the client IP address.
         * @example 100
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests left in the current one-minute window for the client IP address.
         * @example 97
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Seconds to wait before the next request is accepted.
         * @example 12
         */
        "Retry-After": number;
        /**
         * @description Opaque strong entity tag of the response (in double quotes). Send it in `If-None-Match`
         *     to revalidate.
         * @example "srv-42-7d1f0c9a"
         */
        ETag: string;
        /**
         * @description Always `private, no-cache`: an evaluation is for one key and one context, so no shared
         *     cache may keep it, and a client that keeps it revalidates before using it again (the
         *     bulk evaluation with its `ETag` in `If-None-Match`).
         * @example private, no-cache
         */
        OfrepCacheControl: "private, no-cache";
        /**
         * @description The request headers the evaluation depends on besides the body: the environment key
         *     headers, and `Origin` when CORS answers a listed origin (`VEXIL_CORS_ORIGINS`).
         * @example X-VEXIL-API-KEY, X-API-KEY, X-VEXIL-KEY
         */
        OfrepVary: string;
        /**
         * @description The challenge of a `401` (RFC 9110): the `ApiKey` scheme, naming the header that carries
         *     the environment key, `ApiKey realm="vexil", header="X-VEXIL-API-KEY"` (OFREP operations:
         *     `header="X-API-Key"`, the protocol's header).
         * @example ApiKey realm="vexil", header="X-VEXIL-API-KEY"
         */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Only GET (and HEAD) are answered here. */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Only GET (and HEAD) are answered here. */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not ready (database unreachable, starting, snapshots still loading, or shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /**
             * @description `VEXIL_METRICS_TOKEN` is set and the request carries no bearer token (`missing_token`)
             *     or another one (`invalid_token`).
             */
            401: {
                headers: {
                    /** @description The challenge of a `401` (RFC 9110), `Bearer realm="vexil-metrics"`. */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The metrics are served on their own port (`VEXIL_METRICS_PORT`), not here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Only GET (and HEAD) are answered here. */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPublicApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.0.3 document of the public evaluation API. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.0.3",
                     *       "info": {
                     *         "title": "Vexil public evaluation API",
                     *         "version": "1.0.0"
                     *       },
                     *       "servers": [
                     *         {
                     *           "url": "/"
                     *         }
                     *       ],
                     *       "paths": {}
                     *     }
                     */
                    "application/json": components["schemas"]["OpenApiDocument"];
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listEvaluatedFlags: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The evaluation context: JSON text of a `Context` object (see
                 *     `#/components/schemas/Context`), for example
                 *     `{"type":"user","identifier":"user-42","attributes":[{"key":"plan","values":[{"value":"pro"}]}]}`.
                 *     Invalid JSON or a value not matching `Context` gets `400`
                 *     `Context was supplied but is invalid.` Takes precedence over `C`. Non-ASCII text is sent
                 *     either as JSON `\u` escapes or as raw UTF-8 bytes; bytes that are not UTF-8 get that
                 *     `400` too.
                 */
                "X-VEXIL-CONTEXT"?: components["parameters"]["ContextHeader"];
                /**
                 * @description Short alias of `X-VEXIL-CONTEXT`: JSON text of a `Context` object. Used only when
                 *     `X-VEXIL-CONTEXT` is absent.
                 */
                C?: components["parameters"]["ContextHeaderAlias"];
                /**
                 * @description The defaults the application serves when a flag is unavailable: JSON text of an array of
                 *     `DefaultValueDeclaration` objects (see `#/components/schemas/DefaultValueDeclaration`),
                 *     for example `[{"key":"checkout-v2","type":"boolean","value":false}]`. Invalid JSON, a
                 *     value not matching the schema, or a value that does not fit its declared type gets `400`
                 *     `Default values were supplied but are invalid.` Takes precedence over `X-DEFAULT-VALUE`
                 *     and `D`. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes; bytes
                 *     that are not UTF-8 get that `400` too.
                 */
                "X-VEXIL-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeader"];
                /**
                 * @description Alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of `DefaultValueDeclaration`.
                 *     Used only when `X-VEXIL-DEFAULT-VALUE` is absent. Non-ASCII text is sent either as JSON
                 *     `\u` escapes or as raw UTF-8 bytes.
                 */
                "X-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeaderAlias"];
                /**
                 * @description Short alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of
                 *     `DefaultValueDeclaration`. Used only when `X-VEXIL-DEFAULT-VALUE` and `X-DEFAULT-VALUE`
                 *     are absent. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes.
                 */
                D?: components["parameters"]["DefaultValueHeaderShort"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evaluated flags. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "success",
                     *       "data": [
                     *         {
                     *           "flag": {
                     *             "key": "checkout-v2",
                     *             "name": "New checkout",
                     *             "type": "boolean",
                     *             "value": {
                     *               "boolean": true
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "flag": {
                     *             "key": "hero-banner",
                     *             "name": "Hero banner copy",
                     *             "type": "string",
                     *             "value": {
                     *               "string": "Spring sale"
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "flag": {
                     *             "key": "max-cart-items",
                     *             "name": "Maximum cart items",
                     *             "type": "number",
                     *             "value": {
                     *               "number": 50
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "flag": {
                     *             "key": "theme",
                     *             "name": "Theme settings",
                     *             "type": "json",
                     *             "value": {
                     *               "json": {
                     *                 "primary": "#0055ff",
                     *                 "dense": false
                     *               }
                     *             }
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EvaluatedFlagListResponse"];
                };
            };
            400: components["responses"]["BadHeaders"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    evaluateFlags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EvaluationRequest"];
            };
        };
        responses: {
            /** @description The evaluated flags. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluatedFlagListResponse"];
                };
            };
            400: components["responses"]["BadEvaluationRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getEvaluatedFlag: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The evaluation context: JSON text of a `Context` object (see
                 *     `#/components/schemas/Context`), for example
                 *     `{"type":"user","identifier":"user-42","attributes":[{"key":"plan","values":[{"value":"pro"}]}]}`.
                 *     Invalid JSON or a value not matching `Context` gets `400`
                 *     `Context was supplied but is invalid.` Takes precedence over `C`. Non-ASCII text is sent
                 *     either as JSON `\u` escapes or as raw UTF-8 bytes; bytes that are not UTF-8 get that
                 *     `400` too.
                 */
                "X-VEXIL-CONTEXT"?: components["parameters"]["ContextHeader"];
                /**
                 * @description Short alias of `X-VEXIL-CONTEXT`: JSON text of a `Context` object. Used only when
                 *     `X-VEXIL-CONTEXT` is absent.
                 */
                C?: components["parameters"]["ContextHeaderAlias"];
                /**
                 * @description The defaults the application serves when a flag is unavailable: JSON text of an array of
                 *     `DefaultValueDeclaration` objects (see `#/components/schemas/DefaultValueDeclaration`),
                 *     for example `[{"key":"checkout-v2","type":"boolean","value":false}]`. Invalid JSON, a
                 *     value not matching the schema, or a value that does not fit its declared type gets `400`
                 *     `Default values were supplied but are invalid.` Takes precedence over `X-DEFAULT-VALUE`
                 *     and `D`. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes; bytes
                 *     that are not UTF-8 get that `400` too.
                 */
                "X-VEXIL-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeader"];
                /**
                 * @description Alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of `DefaultValueDeclaration`.
                 *     Used only when `X-VEXIL-DEFAULT-VALUE` is absent. Non-ASCII text is sent either as JSON
                 *     `\u` escapes or as raw UTF-8 bytes.
                 */
                "X-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeaderAlias"];
                /**
                 * @description Short alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of
                 *     `DefaultValueDeclaration`. Used only when `X-VEXIL-DEFAULT-VALUE` and `X-DEFAULT-VALUE`
                 *     are absent. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes.
                 */
                D?: components["parameters"]["DefaultValueHeaderShort"];
            };
            path: {
                /**
                 * @description Key of a flag of the key's environment's project. A value that does not match the flag
                 *     key pattern cannot name a flag and gets `404` `Feature flag not found.`
                 * @example checkout-v2
                 */
                flagKey: components["parameters"]["FlagKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evaluated flag. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluatedFlagResponse"];
                };
            };
            400: components["responses"]["BadHeaders"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["FlagNotFound"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    evaluateFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of a flag of the key's environment's project. A value that does not match the flag
                 *     key pattern cannot name a flag and gets `404` `Feature flag not found.`
                 * @example checkout-v2
                 */
                flagKey: components["parameters"]["FlagKey"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EvaluationRequest"];
            };
        };
        responses: {
            /** @description The evaluated flag. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluatedFlagResponse"];
                };
            };
            400: components["responses"]["BadEvaluationRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["FlagNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    recordFlagUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of a flag of the key's environment's project. A value that does not match the flag
                 *     key pattern cannot name a flag and gets `404` `Feature flag not found.`
                 * @example checkout-v2
                 */
                flagKey: components["parameters"]["FlagKey"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UsageReport"];
            };
        };
        responses: {
            /** @description The usage was recorded. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "success"
                     *     }
                     */
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadUsageRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["FlagNotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPayload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description One or more ETags from earlier responses (comma-separated), or `*`. When one of them
                 *     equals the current ETag (weak comparison) or the value is `*`, the response is
                 *     `304 Not Modified` without a body.
                 * @example "srv-42-7d1f0c9a"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description The evaluation context: JSON text of a `Context` object (see
                 *     `#/components/schemas/Context`), for example
                 *     `{"type":"user","identifier":"user-42","attributes":[{"key":"plan","values":[{"value":"pro"}]}]}`.
                 *     Invalid JSON or a value not matching `Context` gets `400`
                 *     `Context was supplied but is invalid.` Takes precedence over `C`. Non-ASCII text is sent
                 *     either as JSON `\u` escapes or as raw UTF-8 bytes; bytes that are not UTF-8 get that
                 *     `400` too.
                 */
                "X-VEXIL-CONTEXT"?: components["parameters"]["ContextHeader"];
                /**
                 * @description Short alias of `X-VEXIL-CONTEXT`: JSON text of a `Context` object. Used only when
                 *     `X-VEXIL-CONTEXT` is absent.
                 */
                C?: components["parameters"]["ContextHeaderAlias"];
                /**
                 * @description The defaults the application serves when a flag is unavailable: JSON text of an array of
                 *     `DefaultValueDeclaration` objects (see `#/components/schemas/DefaultValueDeclaration`),
                 *     for example `[{"key":"checkout-v2","type":"boolean","value":false}]`. Invalid JSON, a
                 *     value not matching the schema, or a value that does not fit its declared type gets `400`
                 *     `Default values were supplied but are invalid.` Takes precedence over `X-DEFAULT-VALUE`
                 *     and `D`. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes; bytes
                 *     that are not UTF-8 get that `400` too.
                 */
                "X-VEXIL-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeader"];
                /**
                 * @description Alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of `DefaultValueDeclaration`.
                 *     Used only when `X-VEXIL-DEFAULT-VALUE` is absent. Non-ASCII text is sent either as JSON
                 *     `\u` escapes or as raw UTF-8 bytes.
                 */
                "X-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeaderAlias"];
                /**
                 * @description Short alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of
                 *     `DefaultValueDeclaration`. Used only when `X-VEXIL-DEFAULT-VALUE` and `X-DEFAULT-VALUE`
                 *     are absent. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes.
                 */
                D?: components["parameters"]["DefaultValueHeaderShort"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payload. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadHeaders"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getPayloadForContext: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description One or more ETags from earlier responses (comma-separated), or `*`. When one of them
                 *     equals the current ETag (weak comparison) or the value is `*`, the response is
                 *     `304 Not Modified` without a body.
                 * @example "srv-42-7d1f0c9a"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EvaluationRequest"];
            };
        };
        responses: {
            /** @description The payload. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadResponse"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadEvaluationRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    streamPayloadChanges: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The evaluation context: JSON text of a `Context` object (see
                 *     `#/components/schemas/Context`), for example
                 *     `{"type":"user","identifier":"user-42","attributes":[{"key":"plan","values":[{"value":"pro"}]}]}`.
                 *     Invalid JSON or a value not matching `Context` gets `400`
                 *     `Context was supplied but is invalid.` Takes precedence over `C`. Non-ASCII text is sent
                 *     either as JSON `\u` escapes or as raw UTF-8 bytes; bytes that are not UTF-8 get that
                 *     `400` too.
                 */
                "X-VEXIL-CONTEXT"?: components["parameters"]["ContextHeader"];
                /**
                 * @description Short alias of `X-VEXIL-CONTEXT`: JSON text of a `Context` object. Used only when
                 *     `X-VEXIL-CONTEXT` is absent.
                 */
                C?: components["parameters"]["ContextHeaderAlias"];
                /**
                 * @description The defaults the application serves when a flag is unavailable: JSON text of an array of
                 *     `DefaultValueDeclaration` objects (see `#/components/schemas/DefaultValueDeclaration`),
                 *     for example `[{"key":"checkout-v2","type":"boolean","value":false}]`. Invalid JSON, a
                 *     value not matching the schema, or a value that does not fit its declared type gets `400`
                 *     `Default values were supplied but are invalid.` Takes precedence over `X-DEFAULT-VALUE`
                 *     and `D`. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes; bytes
                 *     that are not UTF-8 get that `400` too.
                 */
                "X-VEXIL-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeader"];
                /**
                 * @description Alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of `DefaultValueDeclaration`.
                 *     Used only when `X-VEXIL-DEFAULT-VALUE` is absent. Non-ASCII text is sent either as JSON
                 *     `\u` escapes or as raw UTF-8 bytes.
                 */
                "X-DEFAULT-VALUE"?: components["parameters"]["DefaultValueHeaderAlias"];
                /**
                 * @description Short alias of `X-VEXIL-DEFAULT-VALUE`: JSON text of an array of
                 *     `DefaultValueDeclaration`. Used only when `X-VEXIL-DEFAULT-VALUE` and `X-DEFAULT-VALUE`
                 *     are absent. Non-ASCII text is sent either as JSON `\u` escapes or as raw UTF-8 bytes.
                 */
                D?: components["parameters"]["DefaultValueHeaderShort"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream; the response stays open. Sent with `Cache-Control: no-cache`. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["PayloadStreamEvent"];
                };
            };
            400: components["responses"]["BadHeaders"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    ofrepEvaluateFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the flag to evaluate. A value that does not match the flag key pattern cannot name
                 *     a flag and gets `404` `FLAG_NOT_FOUND`.
                 * @example checkout-v2
                 */
                key: components["parameters"]["OfrepFlagKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OfrepEvaluationRequest"];
            };
        };
        responses: {
            /** @description The flag was evaluated. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["OfrepCacheControl"];
                    Vary: components["headers"]["OfrepVary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepEvaluationSuccess"];
                };
            };
            /** @description The request or its context is invalid. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepEvaluationFailure"];
                };
            };
            401: components["responses"]["OfrepUnauthorized"];
            403: components["responses"]["OfrepForbidden"];
            /** @description The flag is not found (or not available to this key). */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key": "checkout-v3",
                     *       "errorCode": "FLAG_NOT_FOUND",
                     *       "errorDetails": "Feature flag not found."
                     *     }
                     */
                    "application/json": components["schemas"]["OfrepEvaluationFailure"];
                };
            };
            413: components["responses"]["OfrepPayloadTooLarge"];
            415: components["responses"]["OfrepUnsupportedMediaType"];
            429: components["responses"]["OfrepTooManyRequests"];
            500: components["responses"]["OfrepInternalError"];
        };
    };
    ofrepEvaluateFlags: {
        parameters: {
            query?: {
                /** @description The protocol's re-fetch metadata (an ETag announced by a change event); accepted and not used. */
                flagConfigEtag?: components["parameters"]["OfrepFlagConfigEtag"];
                /**
                 * @description The protocol's re-fetch metadata (when the configuration last changed, announced by a
                 *     change event): Unix seconds or a date-time; accepted and not used. Any other text is a
                 *     `400` `PARSE_ERROR`.
                 * @example 1771622898
                 */
                flagConfigLastModified?: components["parameters"]["OfrepFlagConfigLastModified"];
            };
            header?: {
                /**
                 * @description One or more ETags of earlier bulk evaluations (comma-separated). When one of them equals
                 *     the current ETag for this key and context (weak comparison), the response is
                 *     `304 Not Modified` without a body. `*` matches nothing here: the ETag is per context, so
                 *     `*` cannot say that the client holds this context's evaluation, and the flags are
                 *     evaluated as without the header.
                 * @example "ofrep-42-5be01c7a"
                 */
                "If-None-Match"?: components["parameters"]["OfrepIfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["OfrepEvaluationRequest"];
            };
        };
        responses: {
            /** @description The evaluated flags. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["OfrepCacheControl"];
                    Vary: components["headers"]["OfrepVary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "flags": [
                     *         {
                     *           "key": "checkout-v2",
                     *           "reason": "SPLIT",
                     *           "variant": "true",
                     *           "value": true,
                     *           "metadata": {
                     *             "resolved_by": "rollout",
                     *             "type": "boolean",
                     *             "revision": 41
                     *           }
                     *         },
                     *         {
                     *           "key": "hero-banner",
                     *           "reason": "STATIC",
                     *           "variant": "Welcome",
                     *           "value": "Welcome",
                     *           "metadata": {
                     *             "resolved_by": "default",
                     *             "type": "string",
                     *             "revision": 17
                     *           }
                     *         },
                     *         {
                     *           "key": "max-cart-items",
                     *           "errorCode": "GENERAL",
                     *           "errorDetails": "The flag could not be evaluated."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["OfrepBulkEvaluationSuccess"];
                };
            };
            304: components["responses"]["OfrepNotModified"];
            /** @description The request or its context is invalid. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepBulkEvaluationFailure"];
                };
            };
            401: components["responses"]["OfrepUnauthorized"];
            403: components["responses"]["OfrepForbidden"];
            413: components["responses"]["OfrepPayloadTooLarge"];
            415: components["responses"]["OfrepUnsupportedMediaType"];
            429: components["responses"]["OfrepTooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["OfrepInternalError"];
        };
    };
}
