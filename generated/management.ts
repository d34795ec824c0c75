/**
 * GENERATED FILE - DO NOT EDIT.
 * Source: specs/management.yaml, by openapi-typescript (make generate).
 */

export interface paths {
    "/api-docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get this API description
         * @description Returns this OpenAPI document as a JSON object. No authentication
         *     (`x-required-scope: none`): no scope is needed and a bearer token, if sent, is ignored.
         *     Without a token there is no per-token limit; the request is limited per client IP like
         *     the public API (`VEXIL_PUBLIC_RATE_LIMIT`, default 100 per minute).
         */
        get: operations["getManagementApiDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List projects
         * @description Paginated list of the projects the token can reach, oldest first.
         *     Required scope: `projects:read`.
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listProjects"];
        put?: never;
        /**
         * Create a project
         * @description Creates a project and its environments. Without `environments` the project gets two
         *     environments, `development` (Development) and `production` (Production); with
         *     `environments` it gets exactly those (an empty array creates none). Environments created
         *     here have default settings (no description, colour `#808080`, comments and confirmation
         *     not required).
         *     Required scope: `config:write`; the token must have no grants (403 otherwise).
         *     A 422 means a body validation failure, including a project key already in use
         *     (`errors.key`, code `already_exists`) or two environments with the same key
         *     (`errors.environments`, code `invalid_combination`), or an
         *     `Idempotency-Key` reused with a different body.
         */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        /**
         * Get a project
         * @description Required scope: `projects:read`.
         */
        get: operations["getProject"];
        /**
         * Update a project
         * @description Changes the project's name and description. `name` is required on every call; an omitted
         *     `description` keeps its current value. The key cannot change.
         *     Required scope: `config:write`; with grants, the whole project must be granted.
         *     A 422 means a body validation failure or an `Idempotency-Key` reused with a different body.
         */
        put: operations["updateProject"];
        post?: never;
        /**
         * Delete a project
         * @description Deletes the project with its environments, environment keys (which stop working at once),
         *     flags, values, targets, rules, segments and insights, in one transaction. Audit entries
         *     are kept. Member accounts lose the project from their `projects`. A management token whose
         *     every grant lies in this project is revoked (rather than left without grants, which would
         *     mean every project). Irreversible.
         *
         *     Typed confirmation: deleting a project that holds any environment whose stored
         *     `confirmation_required` is true deletes those environments too, so it is refused for every
         *     Bearer-token request (422 `ErrorEnvelope`, code `confirmation_required`), whatever it
         *     sends; a console session must send the project's key, typed by the person, as the
         *     `confirmation` query parameter (a DELETE has no body; a field-keyed 422 on `confirmation`,
         *     code `confirmation_required`, otherwise). To delete it with a token, first lift the
         *     setting of those environments in the console (or delete them there). A project with no
         *     such environment is deleted without confirmation. Nothing is deleted when refused.
         *     Required scope: `config:write`; with grants, the whole project must be granted.
         *     A 422 means a refused typed confirmation.
         */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        /**
         * List environments
         * @description Paginated list of the project's environments the token can reach, oldest first.
         *     Required scope: `projects:read`.
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listEnvironments"];
        put?: never;
        /**
         * Create an environment
         * @description Creates an environment in the project. Omitted fields take their defaults: no
         *     description, colour `#808080`, `comments_required` false, `confirmation_required` false.
         *     A new environment has no targets: every flag serves its default value there until a
         *     target is published.
         *     Required scope: `config:write`; with grants, the whole project must be granted.
         *     A 422 means a body validation failure, including an environment key already used in the
         *     project (`errors.key`), or an `Idempotency-Key` reused with a different body.
         */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments/{environmentKey}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Get an environment
         * @description Required scope: `projects:read`.
         */
        get: operations["getEnvironment"];
        /**
         * Update an environment
         * @description Changes the environment's settings. `name` is required on every call; omitted fields
         *     keep their current values; `description: null` clears the description. The key cannot
         *     change. `comments_required` makes a comment mandatory when publishing a target;
         *     `confirmation_required` makes publishing with a Bearer token impossible (422): such
         *     environments are published in the web console, where the person types the environment's
         *     key (`confirmation` of the publish body).
         *
         *     Typed confirmation: an environment whose stored `confirmation_required` is true is
         *     itself protected. Every update of it (any field, whether or not it changes; lifting
         *     `confirmation_required` or `comments_required` included) is refused for every
         *     Bearer-token request (422 `ErrorEnvelope`, code `confirmation_required`), whatever it
         *     sends; a console session must send `confirmation` equal to the environment's key, typed
         *     by the person (a field-keyed 422 on `confirmation`, code `confirmation_required`,
         *     otherwise). The stored setting decides, never the body's: turning the setting on needs no
         *     confirmation, turning it off does. Nothing is written when refused.
         *     Required scope: `config:write`.
         *     A 422 means a body validation failure, a refused typed confirmation or an
         *     `Idempotency-Key` reused with a different body.
         */
        put: operations["updateEnvironment"];
        post?: never;
        /**
         * Delete an environment
         * @description Deletes the environment with its targets, rules, environment keys (which stop working at
         *     once) and insights. Audit entries are kept. A management token whose every grant is this
         *     environment is revoked (rather than left without grants, which would mean every project).
         *     Irreversible.
         *
         *     Typed confirmation: deleting an environment whose stored `confirmation_required` is true
         *     is refused for every Bearer-token request (422 `ErrorEnvelope`, code
         *     `confirmation_required`), whatever it sends; a console session must send the environment's
         *     key, typed by the person, as the `confirmation` query parameter (a DELETE has no body; a
         *     field-keyed 422 on `confirmation`, code `confirmation_required`, otherwise). To delete it
         *     with a token, first lift the setting in the console. Nothing is deleted when refused.
         *     Required scope: `config:write`; with grants, the whole project or this environment.
         *     A 422 means a refused typed confirmation.
         */
        delete: operations["deleteEnvironment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments/{environmentKey}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * List environment keys
         * @description All keys of the environment, oldest first, including revoked ones (`revoked_at` set).
         *     Secrets are never returned here: `masked_key` shows the kind prefix and the last four
         *     characters. Not paginated.
         *     Required scope: `config:write`.
         */
        get: operations["listEnvironmentKeys"];
        put?: never;
        /**
         * Create an environment key
         * @description Creates a key for the public evaluation API of this environment. `kind` decides what the
         *     key may do: `server` keys read evaluated flags and the full compiled payload; `mobile`
         *     and `client` keys get only values evaluated for their context, filtered by the flags'
         *     `include_in_mobile` / `include_in_client`. The secret (`srv_`, `mob_` or `cli_` followed
         *     by at least 32 base62 characters) is returned once, in `key`. Without `name` the key is
         *     named after its kind (`Server key`, `Mobile key`, `Client key`).
         *     Required scope: `config:write`.
         *     A 422 means a body validation failure or an `Idempotency-Key` reused with a different body.
         */
        post: operations["createEnvironmentKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments/{environmentKey}/keys/{keyUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`key_...`) of an environment key of the environment. Unknown, malformed or belonging to another environment is a 404. */
                keyUlid: components["parameters"]["keyUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an environment key
         * @description Revokes the key: from now on it gets 401 from the public API (every instance notices
         *     within its revision poll interval, `VEXIL_REVISION_POLL_MS`, default 250 ms). The key
         *     stays in the list with `revoked_at` set. Revoking an already revoked key succeeds and
         *     changes nothing.
         *     Required scope: `config:write`.
         */
        delete: operations["revokeEnvironmentKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments/{environmentKey}/stale-flags": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * List stale flags
         * @description Flags of the project that are not `permanent` and have not been used in this environment
         *     for `days` days: their last use (the "flag used" telemetry event, reported by SDKs or by
         *     `POST /v1/flags/{flagKey}/usage`) is older than `days` days, or they were never used and
         *     were created more than `days` days ago. Retrieval in a payload does not count as use.
         *     Ordered by last use, never-used flags first, then by key. Not paginated.
         *     Required scope: `flags:read`.
         *     A 422 means `days` is invalid.
         */
        get: operations["listStaleFlags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments/{environmentKey}/default-value-reports": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Report missing and unknown default values
         * @description What public API requests in this environment declared in the default-values header
         *     (`X-VEXIL-DEFAULT-VALUE`, aliases `X-DEFAULT-VALUE`, `D`):
         *     - `missing_defaults`: existing flags that were requested without a declared default
         *       value (the application has nothing to fall back on if the flag becomes unavailable);
         *     - `unknown_flags`: declared defaults for flag keys that do not exist in the project.
         *     Requests that count: `GET /v1/flags` (every flag of the environment is requested),
         *     `GET /v1/flags/{flagKey}`, and `GET /v1/payload` with a mobile or client key (every flag
         *     of that platform). A flag is listed only while it exists, an unknown key only while no
         *     flag has it. Counts are totals since the first observation; entries are ordered by
         *     `last_seen_at`, newest first. Telemetry is written in batches, so reports may lag by a
         *     few seconds. Not paginated.
         *     Required scope: `flags:read`.
         */
        get: operations["listDefaultValueReports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/environments/{environmentKey}/context-attributes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * List observed context types and attributes
         * @description Context types, attribute names and attribute values observed in contexts sent to the
         *     public API of this environment, with how often each was seen. These are the suggestions
         *     of the rule editor: an attribute appears only after it has been sent in this environment.
         *     Types and attributes are ordered by count, highest first; each attribute lists its 100
         *     most frequent values. An attribute's count is the number of contexts that carried it; a
         *     value's count the number of times it was sent. Storage is bounded per environment: the
         *     first 50 context types, 200 attribute names and 500 values per attribute observed are
         *     kept (names and values longer than 200 characters are not), and only their counts grow
         *     afterwards. Contexts are observed from the public evaluation operations, usage reports
         *     and OFREP, not from `evaluateFlag` previews. Not paginated.
         *     Required scope: `flags:read`.
         */
        get: operations["listContextAttributes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List management tokens
         * @description Paginated list of all management tokens of this Vexil instance, oldest first, including
         *     revoked and expired ones. Secrets are never returned here.
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listManagementTokens"];
        put?: never;
        /**
         * Create a management token
         * @description Creates a management token. The secret (`mgt_` followed by at least 32 base62
         *     characters) is returned once, in `token`.
         *     - `scopes`: at least one, no duplicates; see the scope table in the API description.
         *     - `tier`: rate-limit tier, default `standard` (60 requests per minute), `elevated` (300),
         *       `unlimited` (no ceiling).
         *     - `grants`: restrict the token to projects and/or environments; every referenced project
         *       and environment must exist (422). Absent or empty: every project.
         *     - `expires_at`: a future date-time after which the token gets 401; null or absent: never
         *       expires.
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means a body validation failure (including an unknown project or environment in
         *     `grants` or an `expires_at` not in the future) or an `Idempotency-Key` reused with a
         *     different body.
         */
        post: operations["createManagementToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{tokenUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Ulid of a token: a management token (`mgt_...`) under `/tokens`, a personal access token
                 *     (`tok_...`) of the account under `/accounts/{accountUlid}/tokens`. Unknown or malformed is
                 *     a 404.
                 */
                tokenUlid: components["parameters"]["tokenUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a management token
         * @description Revokes the management token (`mgt_` ulid): from now on it gets 401 on this instance, and
         *     on other instances sharing the database within one revision poll interval
         *     (`VEXIL_REVISION_POLL_MS`, 250 ms by default). It stays in the list with `revoked_at` set.
         *     Revoking an already revoked token succeeds and changes nothing.
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         */
        delete: operations["revokeManagementToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Paginated list of all accounts, oldest first.
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listAccounts"];
        put?: never;
        /**
         * Create an account
         * @description Creates an account. Roles: `owner` and `admin` may do everything; `member` may work with
         *     flags, values, targets, rules and segments of the projects listed in `projects` (see
         *     the API description). `projects` is only for members: every key must name an existing
         *     project, and giving projects to an owner or admin is a 422. Only an owner may create
         *     another owner (403 `ErrorEnvelope` for an admin). The account gets no token: create one
         *     with `POST /accounts/{accountUlid}/tokens`.
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means a body validation failure (including an e-mail address already in use or an
         *     unknown project) or an `Idempotency-Key` reused with a different body.
         */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{accountUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Update an account
         * @description Changes an account's name, role and projects (full replacement: `projects` omitted means
         *     none). The e-mail address cannot change. `projects` is only for members; every key must
         *     name an existing project. The change takes effect from the account's next request, for
         *     its console sessions and personal access tokens alike (other instances within
         *     `VEXIL_REVISION_POLL_MS`).
         *     Only an owner may change an owner account or give the `owner` role (403 `ErrorEnvelope`
         *     for an admin). Audited as `account.updated` with the account before and after.
         *     Required: a personal access token or console session of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means a body validation failure, an account changing its own role, taking the
         *     `owner` role from the last owner (one owner always remains, also when owners change each
         *     other at the same moment), or an `Idempotency-Key` reused with a different body.
         */
        put: operations["updateAccount"];
        post?: never;
        /**
         * Delete an account
         * @description Deletes the account together with its personal access tokens, the management tokens it
         *     created and its console sessions, in one transaction: all of them get 401 from then on. Audit entries keep the account's name and
         *     e-mail. Only an owner may delete an owner account (403 `ErrorEnvelope` for an admin).
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means the account is the last `owner` account (one owner always remains, also when
         *     owners delete each other at the same moment) or is the account making the request.
         */
        delete: operations["deleteAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{accountUlid}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a personal access token
         * @description Creates a personal access token for the account. The secret (`pat_` followed by at least
         *     32 base62 characters) is returned once, in `token`. The token acts with the account's
         *     role and projects. `expires_at`: a future date-time; null or absent: never expires.
         *     An admin cannot create tokens for an owner account (403 `ErrorEnvelope`).
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         *     A 422 means a body validation failure (including an `expires_at` not in the future) or
         *     an `Idempotency-Key` reused with a different body.
         */
        post: operations["createPersonalAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{accountUlid}/tokens/{tokenUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
                /**
                 * @description Ulid of a token: a management token (`mgt_...`) under `/tokens`, a personal access token
                 *     (`tok_...`) of the account under `/accounts/{accountUlid}/tokens`. Unknown or malformed is
                 *     a 404.
                 */
                tokenUlid: components["parameters"]["tokenUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a personal access token
         * @description Revokes the account's personal access token (`tok_` ulid): from now on it gets 401. A
         *     token of another account is a 404. Revoking an already revoked token succeeds and changes
         *     nothing. An admin cannot revoke an owner's tokens (403 `ErrorEnvelope`).
         *     Required: a personal access token of an `owner` or `admin` account
         *     (`x-required-scope: personal`).
         */
        delete: operations["revokePersonalAccessToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        /**
         * List flags
         * @description Paginated list of the project's flags, oldest first, optionally filtered by `type`, by
         *     `tag` and by `search` (case-insensitive partial match on key or name), and by what they
         *     serve: `on` and `off` (an environment key: only flags on, or off, there, as
         *     `FlagServingState.on` defines it) and `stale` (with `stale_days`). A page filtered by
         *     what flags serve holds up to `per_page` matching flags; the server reads the project's
         *     flags in batches until the page is full, and the cursors continue from the flags shown.
         *     Required scope: `flags:read`.
         *     A 422 means a query parameter is invalid (code `invalid_query`), or names in `on` or
         *     `off` an environment the project does not have (code `reference_not_found`).
         *     With `include=serving` (the console's flag list) each flag also carries, per environment,
         *     what it serves now (the base value of the newest published target, its rollout, whether
         *     a draft or scheduled target waits, its evaluations in the last 24 hours), `last_used_at` (across environments) and `stale`
         *     (not permanent, and not used in any environment for `stale_days` days, or never used and
         *     older than that), read with a fixed number of queries per page.
         */
        get: operations["listFlags"];
        put?: never;
        /**
         * Create a flag
         * @description Creates a flag. `key` and `type` can never change. `permanent` starts false;
         *     `include_in_mobile` and `include_in_client` default to true.
         *
         *     Default value behaviour: a `boolean` flag is created with the values `true` and `false`,
         *     `false` being the default. Flags of the other types start with no values; the first value
         *     created becomes the default. The default value is served in every environment that has
         *     no published target (`resolved_by: default`); a flag without any value is unavailable
         *     (absent from `GET /v1/flags`, 404 on `GET /v1/flags/{flagKey}`, unless the request
         *     declares a default for it).
         *
         *     Required scope: `flags:write`.
         *     A 422 means a body validation failure, including a key already used in the project
         *     (`errors.key`), or an `Idempotency-Key` reused with a different body.
         */
        post: operations["createFlag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/bulk-delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete several flags
         * @description Deletes up to 100 flags of the project in one transaction, like `DELETE` on each flag.
         *     `flag_keys` must hold 1 to 100 keys without duplicates (422 otherwise). Keys that name no
         *     flag of the project are reported in `not_found` and do not fail the request; both result
         *     lists keep the request's order. Irreversible. Each deleted flag is recorded (audit log and
         *     webhook events) as `flag.deleted` with the flag as `before`, as `DELETE` on the flag records
         *     it, in the request's order; then one `flag.bulk_deleted` entry records the request with
         *     the list of deleted flags.
         *     (`bulk-delete` is a fixed path segment for `POST`; a flag whose key is `bulk-delete` is
         *     still read, updated and deleted through `/projects/{projectKey}/flags/bulk-delete` with
         *     `GET`, `PUT` and `DELETE`.)
         *     Required scope: `flags:write`.
         *     A 422 means a body validation failure or an `Idempotency-Key` reused with a different body.
         */
        post: operations["bulkDeleteFlags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        /**
         * Get a flag
         * @description Required scope: `flags:read`.
         *     With `include=serving` (the console's flag page) the flag also carries, per environment,
         *     what it serves now and whether it is on, `last_used_at` and `stale`, as in `listFlags`.
         *     A 422 means a query parameter is invalid.
         */
        get: operations["getFlag"];
        /**
         * Update a flag
         * @description `name` and `permanent` are required on every call; omitted optional fields keep their
         *     current values; `description: null` clears the description. `key` and `type` cannot
         *     change and are rejected as unknown properties (422). `permanent: true` exempts the flag
         *     from the stale-flag list.
         *     Required scope: `flags:write`.
         *     A 422 means a body validation failure or an `Idempotency-Key` reused with a different body.
         */
        put: operations["updateFlag"];
        post?: never;
        /**
         * Delete a flag
         * @description Deletes the flag with its values, targets (in every environment, published ones
         *     included), rules and insights. Audit entries are kept. Irreversible. A flag that a
         *     draft, scheduled or published target of another flag requires (a prerequisite) is not
         *     deleted: `409` lists those flags.
         *     Required scope: `flags:write`.
         */
        delete: operations["deleteFlag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Evaluate a flag for a context
         * @description Evaluates the flag in the environment exactly as the public API would, for the optional
         *     `context`. Evaluation: while the newest published target has a rollout (active or paused)
         *     at p %, a context with an identifier whose bucket (murmur3 x86 32-bit, seed 0, of
         *     `flagKey/contextType/identifier`, modulo 10000) is below p × 100 gets that target and
         *     every other context the previously published target (or, with none, the flag's default
         *     value). Then the chosen target's rules are tried in position order; the first whose
         *     criteria all match serves its value (`resolved_by: rule`); otherwise the target's value
         *     is served (`rollout` when the rollout chose the new target, `target` otherwise). With no
         *     published target the flag's default value is served (`default`); a flag without any
         *     value gives `value: null`, `resolved_by: unavailable`. A target whose prerequisites fail
         *     serves the flag's default value (`resolved_by: prerequisite`; see `replaceTargetPrerequisites`).
         *     `explanation` says why: the target
         *     that answered, the rollout bucket, and each rule tried with the criterion that failed or
         *     the rule that matched.
         *     This is a preview: it is audited (`flag.evaluated`) but not counted in insights.
         *     Clients that cannot send JSON in a query parameter (most generated clients) use the twin
         *     `POST .../evaluate`, which takes the context in its body and answers alike.
         *     Required scope: `flags:read`.
         *     A 422 means `context` is not a valid JSON context.
         */
        get: operations["evaluateFlag"];
        put?: never;
        /**
         * Evaluate a flag for a context (context in the body)
         * @description The twin of `GET .../evaluate` for clients that cannot send JSON in a query parameter
         *     (most generated clients): the context travels in the body (`ManagementEvaluationRequest`,
         *     `{"context": {...}}`) and the answer is exactly that of `GET .../evaluate` for the same
         *     context: the same evaluation (a preview, not counted in insights), the same
         *     `flag.evaluated` audit entry. Without a body (or with `{}`) the flag is evaluated for no
         *     context. It changes nothing, so it takes no `Idempotency-Key`.
         *     Required scope: `flags:read`.
         *     A 422 means the body does not match `ManagementEvaluationRequest` (`ValidationError`, for example
         *     `errors.context.identifier` when the context has no identifier).
         */
        post: operations["evaluateFlagForContext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/insights": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Get a flag's usage insights in an environment
         * @description Freshness timestamps and counters of the flag in the environment:
         *     - retrieved: the flag was part of a payload fetched by an SDK (`GET /v1/payload`);
         *     - used: code evaluated the flag (SDK usage reports, `POST /v1/flags/{flagKey}/usage`);
         *     - evaluated: the server evaluated it (`GET /v1/flags`, `GET /v1/flags/{flagKey}`, OFREP);
         *     - `last_updated_at`: the last change of the flag, its values or its targets in this
         *       environment.
         *     Timestamps are null when the event never happened; counters are totals since the flag was
         *     created. Telemetry is written in batches, so counters may lag by a few seconds.
         *     Required scope: `flags:read`.
         */
        get: operations["getFlagInsights"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/exposures": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Count the contexts each split value reached, per day
         * @description Exposure counts of the flag's weighted splits in the environment: for each UTC day of
         *     the last `days` days (today included) and each variant (a value's display form) a split
         *     served, the number of distinct contexts (by type and identifier) that received it. Counted
         *     from the server's evaluations (`GET /v1/flags`, `GET /v1/flags/{flagKey}`, client
         *     payloads, OFREP) and from SDK usage reports (`POST /v1/flags/{flagKey}/usage`: its
         *     `context` and `contexts`, each evaluated again on the server, in memory; the SDK sends
         *     up to 100 distinct contexts per flag and report). The counts are approximate: distinct contexts are counted with a HyperLogLog
         *     sketch of 1024 registers (a standard error of about 3 %; small counts are close to exact),
         *     which lets every instance and every flush add its contexts without counting one twice.
         *     They are written in batches, so they may lag by a few seconds. Ordered by day, newest
         *     first, then by variant. Days and variants without exposures are absent. Not paginated.
         *     Required scope: `flags:read`. Audited as `flag.insights_read`.
         *     A 422 means `days` is invalid.
         */
        get: operations["listSplitExposures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/evaluations": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Count the flag's evaluations per hour and served value
         * @description Evaluations of the flag in the environment per UTC hour and served value (its display
         *     form: strings as they are, other values as JSON), for the last `hours` hours (the current
         *     hour included), and the total of the last 24 hours (the current hour and the 23 before).
         *     Counted from the server's evaluations (`GET /v1/flags`, `GET /v1/flags/{flagKey}`, client
         *     and mobile payloads, OFREP); SDK usage reports and server-side SDK payloads are not
         *     evaluations on the server and are not counted. The counts are written in batches, so they
         *     may lag by a few seconds, and are kept as long as audit entries
         *     (`VEXIL_AUDIT_RETENTION_DAYS`). Buckets are ordered by hour, oldest first, then by value;
         *     hours and values without evaluations are absent. Not paginated.
         *     Required scope: `flags:read`. Audited as `flag.insights_read`.
         *     A 422 means `hours` is invalid.
         */
        get: operations["listFlagEvaluationHours"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/overview": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * Get what the console's flag page shows of one environment
         * @description One read of the flag in one environment, as the console's flag page shows it: the serving
         *     state (`FlagServingState`, as `getFlag` with `include=serving` has it), what a context
         *     without attributes is served (`evaluateFlag` without a context), the targets (as
         *     `listTargets`), the rules and prerequisites of the publish serving now, of the publish
         *     before it while its rollout is in progress (which the contexts outside the rollout get)
         *     and of the draft, the usage insights (`getFlagInsights`), the evaluations per hour
         *     (`listFlagEvaluationHours` with `hours`), the split exposures (`listSplitExposures` with
         *     `days`) and the context attributes observed in the environment
         *     (`listContextAttributes`). Each part is what its own operation answers; this operation
         *     answers them together so a page loads in a handful of requests.
         *     Required scope: `flags:read`; the token must also hold `targets:read` (or
         *     `targets:write`; 403 otherwise), since targets and rules are part of the answer.
         *     Audited as `flag.read`.
         *     A 422 means `hours` or `days` is invalid.
         */
        get: operations["getFlagEnvironmentOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/values": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        /**
         * List a flag's values
         * @description All values of the flag, oldest first. Not paginated.
         *     Required scope: `flags:read`.
         */
        get: operations["listFlagValues"];
        put?: never;
        /**
         * Create a flag value
         * @description Adds a value to the flag. `display` must fit the flag type:
         *     - boolean: exactly `true` or `false`;
         *     - number: a JSON number (`42`, `-1.5`, `1e3`; no leading `+`, no leading zeros, no hex,
         *       no `NaN` or `Infinity`, no surrounding spaces), stored in canonical form as the
         *       shortest text that reads back as the same IEEE 754 double: `1.50` becomes `1.5`,
         *       `1e3` becomes `1000`, `-0` becomes `0`. A number that double cannot hold as written
         *       is refused (422 on `display`) rather than stored changed: more significant digits
         *       than a double keeps (`12345678901234567890`, `9007199254740993`: integers beyond
         *       2^53 only where a double holds them exactly), beyond ±1.7976931348623157e308
         *       (`1e400`), or too small to tell from zero (`1e-400`);
         *     - string: any string, the empty string included;
         *     - json: any JSON document (object, array, string, number, boolean or null) nested at most
         *       10 levels deep (`[]` and `{}` are one level, `[[1]]` two), stored in compact form
         *       (`{ "a": 1 }` becomes `{"a":1}`; member order is kept). Every number in it follows the
         *       number rule above (`{"n": 12345678901234567890}` is a 422 on `display`), and an object
         *       naming a member twice with different values is refused.
         *     The stored display is at most 65536 bytes of UTF-8 (64 KB) for every type. A value equal
         *     to an existing value of the flag after this normalisation is a 422 on `display`.
         *     When the flag has no default value (its first value), the new value becomes the default.
         *     Same operation as `createFlagValue`, without an environment in the path.
         *     Required scope: `flags:write`.
         *     A 422 means a body validation failure (`errors.display`) or an `Idempotency-Key` reused
         *     with a different body.
         */
        post: operations["createFlagValueForFlag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/values": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a flag value (environment path)
         * @description The same operation as `createFlagValueForFlag`, at a path under the environment. Values
         *     belong to the flag, not to an environment: the environment must exist (404 otherwise) but
         *     does not scope the value. See `createFlagValueForFlag` for the rules on `display`.
         *     Required scope: `flags:write`.
         *     A 422 means a body validation failure (`errors.display`) or an `Idempotency-Key` reused
         *     with a different body.
         */
        post: operations["createFlagValue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/values/{valueUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Update a flag value
         * @description Replaces the value's `display` (same rules and normalisation as creation). Every target
         *     and rule that points at the value keeps pointing at it, so changing the display of a
         *     value that is served (the default, or the value of a published target or of one of its
         *     rules) changes what those environments serve from the next payload revision on.
         *     Required scope: `flags:write`.
         *     A 422 means a body validation failure (`errors.display`, including a value equal to
         *     another value of the flag after normalisation) or an `Idempotency-Key` reused with a
         *     different body.
         */
        put: operations["updateFlagValue"];
        post?: never;
        /**
         * Delete a flag value
         * @description Deletes the value. A 422 (`ErrorEnvelope`, the message names the reason) means the value
         *     is still in use: it is the flag's default (make another value the default first), or a
         *     target of the flag points at it in any environment and in any status (draft, scheduled,
         *     published, or expired: expired targets are the record of what was served), or a
         *     targeting rule of any target does. Point those at another value (or delete the drafts)
         *     first.
         *     Required scope: `flags:write`.
         */
        delete: operations["deleteFlagValue"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/values/{valueUlid}/default": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Make a value the flag's default
         * @description Makes the value the flag's default and clears `default` on every other value of the flag.
         *     The default value is served in environments without a published target and becomes the
         *     value of new drafts there. Setting the current default again changes nothing. No body.
         *     Required scope: `flags:write`.
         */
        patch: operations["setDefaultFlagValueForFlag"];
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/values/{valueUlid}/default": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Make a value the flag's default (environment path)
         * @description The same operation as `setDefaultFlagValueForFlag`, at a path under the environment. The
         *     default belongs to the flag, not to the environment: the environment must exist (404
         *     otherwise) but does not scope the change. No body.
         *     Required scope: `flags:write`.
         */
        patch: operations["setDefaultFlagValue"];
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        /**
         * List a flag's targets in an environment
         * @description All targets of the flag in the environment, newest first, in every status (`draft`,
         *     `scheduled`, `published`, `expired`). Deleted drafts and scheduled targets are gone. Not
         *     paginated.
         *     Required scope: `targets:read` (or `targets:write`).
         */
        get: operations["listTargets"];
        put?: never;
        /**
         * Create a draft target
         * @description Creates a draft target (`status: draft`). It copies the currently serving published
         *     target of the flag in this environment: its value, its rules and their criteria (with new
         *     ulids), but not its rollout. With no published target, the draft's value is the flag's
         *     default value and it has no rules. Several drafts may exist at once. No body.
         *
         *     Target lifecycle:
         *     | From | Operation | To |
         *     |---|---|---|
         *     | (none) | `createTarget` | `draft` |
         *     | `draft` | `publishTarget` without `scheduled_at` | `published` (older published targets become `expired`, unless a rollout is configured) |
         *     | `draft` or `scheduled` | `publishTarget` with a future `scheduled_at` | `scheduled` |
         *     | `scheduled` | `publishTarget` without `scheduled_at`, or `scheduled_at` reached | `published` |
         *     | `published` | a newer target is published without rollout, or this target's successor completes or removes its rollout | `expired` |
         *     | `draft` or `scheduled` | `deleteTarget` | gone |
         *
         *     Only drafts can be edited (value, comment, rules, rollout configuration).
         *     Required scope: `targets:write`.
         *     A 422 means the flag has no value yet (create a value first), or an `Idempotency-Key`
         *     reused with a different body.
         */
        post: operations["createTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        /**
         * Get a target
         * @description A target of another flag or environment is a 404.
         *     Required scope: `targets:read` (or `targets:write`).
         */
        get: operations["getTarget"];
        /**
         * Update a draft target
         * @description Changes the draft's base value (`value_ulid`, served when no rule matches), its base
         *     split (`split`: several values by weight, schema `Split`; null removes it) and/or its
         *     comment; at least one field. Omitted fields keep their values; `comment: null` clears
         *     the comment. A split is refused with 422 naming the field (`errors["split.shares"]`,
         *     `errors["split.shares.0.value_ulid"]`).
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure (including a `value_ulid` that is not a value of
         *     this flag, `errors.value_ulid`), a target that is not a draft (`ErrorEnvelope`), or an
         *     `Idempotency-Key` reused with a different body.
         */
        put: operations["updateTarget"];
        post?: never;
        /**
         * Delete a draft or scheduled target
         * @description Discards a draft or cancels a scheduled target, with its rules. The published target is
         *     unaffected. A 422 means the target is `published` or `expired`: those are history and
         *     cannot be deleted.
         *     Required scope: `targets:write`.
         */
        delete: operations["deleteTarget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Publish or schedule a target
         * @description Publishes a `draft` or `scheduled` target, now or at `scheduled_at`.
         *     - Without `scheduled_at` (or with null) the target becomes `published` at once
         *       (`published_at` set, `scheduled_at` cleared) and serves the environment. Without a
         *       rollout every older published target of the flag in the environment becomes `expired`
         *       (this also ends any rollout in progress). With a rollout, the previously published
         *       target keeps serving the contexts outside the rollout percentage and stays `published`
         *       until the rollout is completed or deleted.
         *     - With a future `scheduled_at` the target becomes `scheduled`; a background job publishes
         *       it at that time with the same effects (audit actor `system`). Publishing a scheduled
         *       target again reschedules it, or publishes it at once without `scheduled_at`. The
         *       comment and confirmation requirements are checked when the target is scheduled. If the
         *       scheduled publish is no longer allowed when it runs (its rollout while another rollout
         *       of the flag is in progress), the target stays `scheduled` and is retried; the failure is
         *       audited once (action target.published, result `invalid`, actor `system`).
         *     - Each publish's `published_at` is later than every earlier publish of the flag in the
         *       environment; concurrent publishes are applied one after another, so exactly one
         *       target serves (plus, during a rollout, the one it replaces).
         *     - An absent `comment` keeps the comment stored on the draft (updateTarget); it satisfies
         *       `comments_required` too.
         *     - Rollout: `rollout_enabled: true` configures a rollout as part of the publish (replacing
         *       one configured on the draft): `rollout_mode` is then required, `rollout_percentage` is
         *       required for `manual` and prohibited for `automatic` (which starts at 1 % and advances
         *       through 1, 5, 10, 25, 50, 100 % one step per interval, completing at 100 %).
         *       `rollout_enabled: false` removes a configured rollout; absent keeps the draft's rollout
         *       configuration. `rollout_mode` and `rollout_percentage` are prohibited unless
         *       `rollout_enabled` is true.
         *     Required scope: `targets:write`.
         *     A 422 means:
         *     - a body validation failure (`ValidationError`): `scheduled_at` not in the future, a
         *       missing or prohibited rollout field, or a missing `comment` when the environment has
         *       `comments_required` (`errors.comment`);
         *     - a missing or wrong `confirmation` from a console session where the environment has
         *       `confirmation_required` (`ValidationError`, `errors.confirmation`);
         *     - a state failure (`ErrorEnvelope`): the target is `published` or `expired`; the
         *       environment has `confirmation_required` and the request has a Bearer token (code
         *       `confirmation_required`; publish it in the web interface); a rollout
         *       is requested while another rollout of the flag is in progress in the environment
         *       (complete or delete it first);
         *     - an `Idempotency-Key` reused with a different body.
         */
        put: operations["publishTarget"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rollout": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Pause, resume or change a rollout
         * @description Exactly one of `action` and `rollout_percentage`:
         *     - `{"action": "pause"}`: an `active` rollout becomes `paused`; the split stays as it is.
         *     - `{"action": "resume"}`: a `paused` rollout becomes `active`.
         *     - `{"rollout_percentage": n}`: sets the percentage of an `active` manual rollout.
         *     The target must be `published` with a rollout that is not `completed`. `confirmation`
         *     may accompany either (typed confirmation, see `createRollout`): in an environment with
         *     `confirmation_required` it is required from a console session, and Bearer-token requests
         *     are refused whatever they send.
         *     Required scope: `targets:write`.
         *     A 422 means:
         *     - `ValidationError`: both or neither field (`errors.body`), a bad `rollout_percentage`,
         *       a percentage change on an automatic rollout (`errors.rollout_percentage`), or a missing
         *       or wrong `confirmation` from a console session (`errors.confirmation`);
         *     - `ErrorEnvelope`: the target is not published; it has no active rollout (no rollout,
         *       a completed one, pausing or changing a paused one, resuming one that is not paused);
         *       the environment requires typed confirmation and the request has a Bearer token (code
         *       `confirmation_required`);
         *     - an `Idempotency-Key` reused with a different body.
         */
        put: operations["updateRollout"];
        /**
         * Configure a rollout on a draft
         * @description Configures a percentage rollout on a draft target; it takes effect when the target is
         *     published. `rollout_mode` `manual` needs `rollout_percentage` (1 to 100); `automatic`
         *     prohibits it and starts at 1 %, advancing through 1, 5, 10, 25, 50, 100 % one step per
         *     interval (server setting, default one hour) once published, and completing at 100 %; the
         *     target's `rollout_next_step_at` and `rollout_next_percentage` say when and to what.
         *     `rollout_status` becomes `active`.
         *
         *     Rollout lifecycle (`rollout_status`):
         *     | From | Operation | To |
         *     |---|---|---|
         *     | (none) | `createRollout` on a draft, or `publishTarget` with `rollout_enabled` | `active` |
         *     | `active` | `updateRollout` `{"action": "pause"}` (published target) | `paused` (an automatic rollout stops advancing) |
         *     | `paused` | `updateRollout` `{"action": "resume"}` | `active` (an automatic rollout restarts the interval at its current step) |
         *     | `active` | `updateRollout` `{"rollout_percentage": n}` (published, manual) | `active` at n % |
         *     | `active` or `paused` | `completeRollout` (published), or an automatic rollout reaching 100 % | `completed` at 100 %; older published targets `expired` |
         *     | any | `deleteRollout` | rollout fields null; on a published target it serves everyone and older published targets are `expired` |
         *     | `active` or `paused` | the target is `expired` by a newer publish | `completed` (its `rollout_percentage` stays at the step it reached) |
         *
         *     While a rollout of the newest published target is `active` or `paused` at p %,
         *     identified contexts whose bucket is below p × 100 get the new target and all others get
         *     the previously published target (or, with none, the flag's default value).
         *
         *     Typed confirmation: in an environment with `confirmation_required` every rollout operation
         *     (create, pause, resume, percentage, complete, delete) is refused (422, code
         *     `confirmation_required`) for every Bearer-token request, like publishing; a console session
         *     may make the change only with `confirmation` equal to the environment's key, typed by the
         *     person (field-keyed 422 on `confirmation` otherwise).
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure (`ValidationError`: missing or prohibited
         *     `rollout_percentage`, a missing or wrong `confirmation` from a console session), a target
         *     that is not a draft or already has a rollout, or an environment that requires typed
         *     confirmation and a Bearer token (`ErrorEnvelope`, code `confirmation_required`), or an
         *     `Idempotency-Key` reused with a different body.
         */
        post: operations["createRollout"];
        /**
         * Remove a rollout
         * @description Removes the target's rollout: `rollout_mode`, `rollout_percentage` and `rollout_status`
         *     become null. On a draft or scheduled target it only removes the configuration. On a
         *     published target the target now serves every context and older published targets become
         *     `expired`. Typed confirmation as for `createRollout`: in an environment with
         *     `confirmation_required` a console session sends the environment's key as the
         *     `confirmation` query parameter (a DELETE has no body); Bearer-token requests are refused.
         *     Required scope: `targets:write`.
         *     A 422 means the target has no rollout or is `expired`, or the environment requires typed
         *     confirmation (`ErrorEnvelope` with code `confirmation_required` for a Bearer token;
         *     `ValidationError` on `confirmation` for a console session without the right key).
         */
        delete: operations["deleteRollout"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rollout/complete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a rollout
         * @description Completes the rollout of a published target (active or paused): `rollout_percentage`
         *     becomes 100 and `rollout_status` `completed`; the target serves every context and the
         *     previously published targets become `expired`. The body is optional: it carries only
         *     the typed confirmation (as for `createRollout`), needed from a console session in an
         *     environment with `confirmation_required`, where Bearer-token requests are refused.
         *     Required scope: `targets:write`.
         *     A 422 means the target is not published, has no rollout, or its rollout is already
         *     completed, or the environment requires typed confirmation (`ErrorEnvelope` with code
         *     `confirmation_required` for a Bearer token; `ValidationError` on `confirmation` for a
         *     console session without the right key), or an `Idempotency-Key` reused with a different
         *     body.
         */
        post: operations["completeRollout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        /**
         * List a target's rules
         * @description All rules of the target in evaluation order (lowest `position` first), each with its
         *     criteria. Not paginated.
         *     Required scope: `targets:read` (or `targets:write`).
         */
        get: operations["listRules"];
        put?: never;
        /**
         * Add a rule to a draft
         * @description Appends a rule after the existing rules of a draft target. A rule serves `value_ulid`
         *     when all of its criteria match (AND); rules are tried in position order and the first
         *     match wins.
         *     With `split` the rule serves one of several values by weight instead (schema `Split`).
         *
         *     Criteria:
         *     - `selector` `attribute`: compares the context attribute named by `sub_selector`
         *       (required). All 24 comparers are allowed.
         *     - `selector` `context`: compares the context identifier; with `sub_selector` it also
         *       requires that context type. Comparers `equal`, `notequal`, `in`, `notin`.
         *     - `selector` `segment`: compares the keys of the segments the context belongs to;
         *       `values` are segment keys of the project, which must exist. `sub_selector` must be
         *       absent or null. Comparers `equal`, `notequal`, `in`, `notin`.
         *     - `values`: at least one string, except for `isnull` and `notnull`, which take none:
         *       `values` must then be absent (present, even empty, is a 422). Values of `gt`, `gte`,
         *       `lt`, `lte` must be numbers (`-?[0-9]+(.[0-9]+)?([eE][+-]?[0-9]+)?`); values of the
         *       `semver_*` comparers versions, of `before` and `after` date-times with an offset, and of
         *       `matches` regular expressions Vexil can run in linear time (see `Comparer`).
         *     - Matching: attributes may have several values; a positive comparer matches when any
         *       attribute value matches any criterion value (`equal` and `in` behave the same); the
         *       `not...` comparers are the negation of their positive form; `isnull` matches an absent
         *       attribute or one whose values are all empty strings; ordering comparers compare
         *       numerically and never match a non-numeric value; version and date comparers never
         *       match a value that is not a version or a date-time.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure (`ValidationError`, nested fields as
         *     `criteria.0.comparer`; including a `value_ulid` that is not a value of the flag or an
         *     unknown segment key), a target that is not a draft (`ErrorEnvelope`), or an
         *     `Idempotency-Key` reused with a different body.
         */
        post: operations["createRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/prerequisites": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        /**
         * List a target's prerequisites
         * @description The flags of the project this target requires, in the order they are checked, each with
         *     the values it must serve (see `replaceTargetPrerequisites`). Not paginated.
         *     Required scope: `targets:read` (or `targets:write`).
         */
        get: operations["listTargetPrerequisites"];
        /**
         * Set the prerequisites of a draft
         * @description Replaces the whole list of prerequisites of a draft target (an empty list removes them).
         *     A prerequisite names another flag of the same project (`flag_key`) and the values it
         *     must serve (`value_ulids`, values of that flag). When the target is evaluated, its
         *     prerequisites are checked first, in list order: each required flag is evaluated for the
         *     same context, in the same environment, with its own published target, rollout and
         *     prerequisites (recursively). If a required flag serves none of its listed values (or
         *     has nothing to serve), the target does not apply: the flag serves its default value
         *     with `resolved_by` `prerequisite` (OFREP reason `PREREQUISITE_FAILED`), whatever the
         *     target's rules say. Otherwise the target's rules and value apply as usual.
         *
         *     Prerequisites belong to the target: they are edited on a draft, published, scheduled
         *     and rolled out with it, and a new draft copies those of the serving target. During a
         *     rollout the contexts inside it are checked against the new target's prerequisites and
         *     the others against the previous target's.
         *
         *     Refused with a 422 naming the field: an unknown flag (`prerequisites.0.flag_key`, code
         *     `reference_not_found`), the flag itself or a flag listed twice (`invalid_combination`),
         *     a value that is not one of that flag's (`prerequisites.0.value_ulids.1`,
         *     `reference_not_found`), and a cycle: a required flag that, through the prerequisites of
         *     any draft, scheduled or published target of this environment, requires this flag
         *     (`prerequisites.0.flag_key`, `invalid_combination`). A target that is not a draft is a
         *     422 (`ErrorEnvelope`).
         *     Required scope: `targets:write`.
         */
        put: operations["replaceTargetPrerequisites"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules/{ruleUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
                /** @description Ulid (`rul_...`) of a rule of the target. Unknown, malformed or belonging to another target is a 404. */
                ruleUlid: components["parameters"]["ruleUlid"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Replace a rule of a draft
         * @description Replaces the rule entirely (not a partial update): value, description and criteria (the
         *     criteria get new ulids). The rule keeps its position. Same body rules as `createRule`.
         *     A rule of another target is a 404.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure (`ValidationError`), a target that is not a draft
         *     (`ErrorEnvelope`), or an `Idempotency-Key` reused with a different body.
         */
        put: operations["updateRule"];
        post?: never;
        /**
         * Delete a rule of a draft
         * @description Deletes the rule; the remaining rules are renumbered without gaps, keeping their order.
         *     Required scope: `targets:write`.
         *     A 422 means the target is not a draft.
         */
        delete: operations["deleteRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rules-order": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Reorder the rules of a draft
         * @description Reorders the rules of a draft target. Ulids that are not rules of this target are
         *     ignored. The listed rules are sorted by `order` (lowest first; on a tie, in the order of
         *     the request) and placed, in that order, into the positions the listed rules occupy now;
         *     every rule that is not listed keeps its position. Listing every rule therefore sets the
         *     whole order, and listing a subset reorders those rules among their own positions (for
         *     rules A, B, C, D, the body `[{D, 0}, {A, 1}]` gives D, B, C, A). Positions stay
         *     `0, 1, 2, ...` without gaps. The response is every rule of the target in the new order.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure (including the same ulid twice, as
         *     `errors["rules.<index>.ulid"]`), a
         *     target that is not a draft (`ErrorEnvelope`), or an `Idempotency-Key` reused with a
         *     different body.
         */
        put: operations["reorderRules"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/segments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        /**
         * List segments
         * @description Paginated list of the project's segments, oldest first.
         *     Required scope: `targets:read` (or `targets:write`).
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listSegments"];
        put?: never;
        /**
         * Create a segment
         * @description Creates a segment of the project. Membership of a context: its identifier in `included`
         *     makes it a member; otherwise its identifier in `excluded` makes it a non-member;
         *     otherwise it is a member when the criteria of any one of `rules` all match (same
         *     criterion semantics as targeting rules, selectors `attribute` and `context` only).
         *     Segment changes take effect at once in every environment of the project.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure (including a key already used in the project, or a
         *     `segment` selector in a segment rule) or an `Idempotency-Key` reused with a different
         *     body.
         */
        post: operations["createSegment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/segments/{segmentKey}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a segment of the project. A value that matches no segment (or not the pattern) is a 404.
                 * @example beta-testers
                 */
                segmentKey: components["parameters"]["segmentKey"];
            };
            cookie?: never;
        };
        /**
         * Get a segment
         * @description Required scope: `targets:read` (or `targets:write`).
         */
        get: operations["getSegment"];
        /**
         * Replace a segment
         * @description Full replacement: `name` is required; an omitted `description` becomes null and omitted
         *     `included`, `excluded` and `rules` become empty. The key cannot change (rejected as an
         *     unknown property). Takes effect at once in every environment of the project.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure or an `Idempotency-Key` reused with a different
         *     body.
         */
        put: operations["updateSegment"];
        post?: never;
        /**
         * Delete a segment
         * @description Deletes the segment. A 422 means a rule of a draft, scheduled or published target still
         *     refers to it (remove those criteria first).
         *     Required scope: `targets:write`.
         */
        delete: operations["deleteSegment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current console session
         * @description The signed-in account and the session's `csrf_token` (401 without a live session cookie).
         */
        get: operations["getSession"];
        put?: never;
        /**
         * Sign in to the console
         * @description Checks an account's email and password and starts a console session: the answer sets
         *     the `vexil_session` cookie (HttpOnly, SameSite=Strict, Path=/, Secure behind https) and
         *     carries the session's `csrf_token`. Sessions end `VEXIL_SESSION_HOURS` after sign-in
         *     (default 12) or after `VEXIL_SESSION_IDLE_MINUTES` without a request (default 60), at
         *     sign-out, and when the account's password changes or the account is deleted. The email
         *     is trimmed and lower-cased before anything else, so every spelling is one account.
         *     Failed sign-ins slow down the address that makes them, never lock the account: after
         *     `VEXIL_SIGN_IN_ATTEMPTS` (default 10) failures on one account from one client address,
         *     or ten times that from one address over all accounts, each further attempt from that
         *     address waits a delay that doubles with every failure (1 s, 2 s, 4 s ... at most 15
         *     minutes), answered 429 with `Retry-After`; the account's own failures delay only
         *     addresses that have failed on it, so the right password from an address that has not
         *     been failing signs in at once. Failures are forgotten 15 minutes after the last one.
         *     Failures are audited as
         *     `auth.sign_in` with result `denied_auth` (the email tried is the entry's subject). A
         *     request from another origin is refused (403, code `csrf_failed`): the server's own
         *     origin is the one the request reached it at, or `VEXIL_PUBLIC_URL` when a proxy in front
         *     of Vexil changes the scheme or host (with `VEXIL_PUBLIC_URL` on https the cookie is
         *     Secure). Signing in with a temporary password (see the `consoleSession` security scheme)
         *     gives a session with `password_change_required: true` that may only choose the
         *     account's own password; an expired temporary password is a 401.
         */
        post: operations["createSession"];
        /**
         * Sign out
         * @description Ends the session and clears the cookie.
         */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change one's own password
         * @description Needs the current password (422 `invalid_credentials` otherwise); the new one needs 12
         *     to 200 characters and must differ from the current one (422 `invalid_combination`). The new password is the account's own: a temporary
         *     password ends here, and so does the session's `password_change_required`. Ends every
         *     session of the account (the console signs in again). Audited as
         *     `account.password_changed`.
         */
        put: operations["changeOwnPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{accountUlid}/password": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account (`usr_...`). Unknown is a 404. */
                accountUlid: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Set an account's password
         * @description An owner or admin sets (or resets) an account's console password (admins not an
         *     owner's). Ends every session of that account. 12 to 200 characters. Set for another
         *     account the password is temporary: it lets that person sign in only to choose their own
         *     password, for `VEXIL_TEMPORARY_PASSWORD_DAYS` (default 7) days (see the
         *     `consoleSession` security scheme). Set for one's own account (with a personal access
         *     token) it is the account's own password.
         *     Required: an owner's or admin's personal access token or console session
         *     (`x-required-scope: personal`). Audited as `account.password_set`.
         */
        put: operations["setAccountPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description Paginated list of the project's webhook subscriptions, oldest first. Secrets are never
         *     shown again after creation.
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe a URL to the project's changes
         * @description Creates a subscription. Every configuration change of the project whose event type is
         *     taken by `events` (and, with `environments`, that concerns one of those environments or
         *     no environment) is written to an outbox in the same transaction as the change and
         *     delivered to `url` at least once, signed as the Standard Webhooks specification says
         *     (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`: `v1,` and the base64
         *     HMAC-SHA256 of `id.timestamp.body` with the secret). The secret (`whsec_` and base64) is
         *     returned once, here (and by `rotateWebhookSecret`, which replaces it); it is stored encrypted (AES-256-GCM) with the server's
         *     `VEXIL_SECRET_KEY`, or without it with a key generated once and kept in the database, and
         *     is never logged.
         *
         *     The body of a delivery is `{"type", "timestamp", "data": {"project", "environment",
         *     "subject", "actor", "changes"}}`: `changes` is the audit entry's record of the change
         *     (`AuditChanges`: the subject before and after, the publish comment), or null.
         *
         *     Order: each subscription numbers its events in the order their changes commit (the
         *     delivery's `sequence`), and event n+1 is sent only after event n was delivered or given up,
         *     whichever instance sends them; changes that wait for one another (two changes of one
         *     target, say) thus arrive in the order they were made. A receiver can still see an event twice (at least
         *     once: an attempt whose answer was lost is made again), so it should deduplicate by
         *     `webhook-id`. Pings are outside the order.
         *
         *     Attempts: one at a time per event across all instances, each limited to
         *     `VEXIL_WEBHOOK_TIMEOUT_MS` including the host's DNS resolution; any 2xx answer counts as
         *     delivered. Failures are retried with exponential backoff and jitter until the event is
         *     `VEXIL_WEBHOOK_MAX_AGE_MS` old (24 hours), then it is marked `failed` and the next one
         *     follows. A subscription whose deliveries fail `VEXIL_WEBHOOK_DISABLE_AFTER` times in a row
         *     (default 50) is disabled, with the reason recorded. While a subscription is disabled no
         *     new events are queued for it; events already waiting stay, and are sent in order when it
         *     is enabled again (each gets at least one more attempt; one older than the maximum age that
         *     fails then is marked `failed`).
         *
         *     `url` must be https, or http when `VEXIL_WEBHOOK_ALLOW_HTTP` is true; hosts that resolve
         *     to loopback, link-local or private addresses (also spelled inside IPv6: IPv4-mapped or
         *     -compatible, NAT64, 6to4, Teredo, ISATAP) are refused unless
         *     `VEXIL_WEBHOOK_ALLOW_PRIVATE` is true, when the subscription is saved and again at every
         *     attempt, which connects only to the addresses it checked. `environments` must name
         *     environments of the project (422 on `environments.N` otherwise).
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         *     A 422 means a body validation failure (including a refused URL).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/webhooks/{webhookUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description Required scope: `config:write`, by an owner or admin, with the whole project granted.
         */
        get: operations["getWebhook"];
        /**
         * Change a webhook subscription
         * @description Full replacement of url, events, environments, description and enabled (the secret is
         *     kept). Enabling a disabled subscription clears its failure count; the events that waited
         *     for it are sent in order (see createWebhook).
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         *     A 422 means a body validation failure (including a refused URL).
         */
        put: operations["updateWebhook"];
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Removes the subscription and its undelivered events and delivery log.
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/webhooks/{webhookUlid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        /**
         * List a subscription's deliveries
         * @description The delivery log, oldest event first: each event with its status (`pending`,
         *     `delivered`, `failed` after 24 hours of retries), its place in the subscription's order,
         *     attempts, the last response code, duration and error, and when the next attempt is due.
         *     Delivered and failed events are deleted `VEXIL_WEBHOOK_RETENTION_DAYS` (default 30) after
         *     they were created.
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         *     A 422 means `per_page` or `cursor` is invalid.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/webhooks/{webhookUlid}/deliveries/{deliveryUlid}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
                /** @description The delivery's ulid (`whe_...`). Unknown is a 404. */
                deliveryUlid: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event again
         * @description Queues the event again as a new delivery (new `webhook-id`) at the end of the
         *     subscription's order (a ping again as a ping). The subscription may be disabled: the
         *     delivery then waits until it is enabled.
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/webhooks/{webhookUlid}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.ping` event for this subscription only, even when `events` does not
         *     list it. A ping is outside the subscription's order: it is sent at once, not behind
         *     events waiting for a failing receiver (retried like any event; a disabled subscription
         *     sends it when enabled again).
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/webhooks/{webhookUlid}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Replaces the subscription's signing secret with a new one, returned once, here. During the
         *     grace period (`grace_period_seconds`, a day when absent, at most 7 days) every delivery is
         *     signed with both secrets: `webhook-signature` carries two signatures separated by a space,
         *     `v1,<with the new secret> v1,<with the previous one>`, and a Standard Webhooks receiver
         *     accepts a message when one of them matches. So the receiver can switch to the new secret
         *     at any time within the period; after it only the new secret signs. A grace period of 0
         *     ends the previous secret at once. Rotating again during a grace period drops the older
         *     secret (only the secret being replaced keeps signing).
         *     Required scope: `config:write`, by an owner or admin, with the whole project granted.
         *     A 422 means a body validation failure (a grace period outside 0..604800).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/configuration": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        /**
         * Export a project's configuration
         * @description The project as a `ProjectConfiguration` document: its environments' settings, its flags
         *     with their values, its segments, and for each environment the serving configuration of
         *     every flag that has a published target there (the newest published target: base value,
         *     rules in evaluation order with their criteria, and its rollout while one is active or
         *     paused). Keys, never ulids. Lists are in a fixed order (environments in creation order,
         *     flags and segments by key, values in creation order, rules by position), and nothing
         *     time-dependent is included, so an unchanged project exports to identical bytes.
         *     `Accept: application/yaml` (or `format=yaml`) answers YAML; JSON otherwise.
         *     Required scope: `flags:read`; the token must also hold `targets:read` (403 otherwise),
         *     since targeting and segments are part of the document. With `environments`, only those
         *     environments (and their serving configurations) are exported.
         *     Audited as `project.exported`.
         */
        get: operations["exportProjectConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/configuration/plan": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Plan what a configuration file would change
         * @description Compares the `ProjectConfiguration` in the body with the project as it is and answers
         *     the list of changes applying it would make, changing nothing: creations and updates of
         *     the project's name and description, environments (settings), segments, flags, and flag
         *     values (compared in their normalised display form, so `{"a": 1}` and `{"a":1}` are the
         *     same value); and per environment each flag whose serving configuration (base value,
         *     rules and criteria, rollout) differs from what is served, with both sides. Things the
         *     project has and the file does not are listed as deletions only with `prune=true`;
         *     serving configurations are never deleted. An empty `changes` list means the file matches
         *     the project. A project that does not exist yet is planned as apply would make it: its
         *     creation (`create` of kind `project`) first, then everything in the file as creations.
         *     `refusals` lists every refusal apply of the same file, with the same `comment` and
         *     `confirmation` and by the same caller, would make by the environments' stored settings: a
         *     publish in an environment with `comments_required` and no comment (`comment_required`),
         *     any change in an environment with `confirmation_required` by a Bearer token, or by a
         *     console session whose `confirmation` does not name it (`confirmation_required`). A plan
         *     with no refusal applies (unless the project changes in between).
         *     Required scope: `flags:read`; the token must also hold `targets:read` (403 otherwise).
         *     A 422 means the file is not a valid `ProjectConfiguration` (field-keyed, with the path
         *     inside the file, e.g. `flags.3.values.1.value`), names another project, changes a flag's
         *     type, or names a value, segment or environment it does not define.
         */
        post: operations["planProjectConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/configuration/apply": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a configuration file
         * @description Makes exactly the changes `planProjectConfiguration` lists for the same file and answers
         *     them. The whole file is one database transaction, across all its environments (stronger
         *     than one transaction per environment): when any change is refused, in any environment,
         *     nothing of the file is written, neither the other environments' publishes nor the
         *     project, environment, segment, flag and value changes, and other requests never see part
         *     of the file applied. Changes go through the
         *     same rules as the individual operations; each serving change creates a draft, sets its
         *     base value and rules, and publishes it through the normal publish path, so an environment
         *     with `comments_required` needs a comment (the file's `comment`, else the `comment`
         *     parameter) and an environment with `confirmation_required` refuses the apply (422, code
         *     `confirmation_required`) for a Bearer token, as it refuses every Bearer-token publish; a
         *     console session may change it when `confirmation` names that environment's key, typed
         *     by the person (a field-keyed 422 on `confirmation` otherwise). Whether an environment
         *     requires a comment or confirmation is its stored setting, never the file's: any change of
         *     a `confirmation_required` environment (its serving, its own settings, including
         *     `confirmation_required`, or its deletion) is protected. These refusals are checked before
         *     any change, and are exactly the plan's `refusals`. Each change is audited as its own action with this
         *     request as the actor's; the apply itself is audited as `project.applied`. Applying the
         *     same file again changes nothing (no new targets, revisions or audit entries beyond
         *     `project.applied`). Deletions only with `prune=true`. A project that does not exist yet is
         *     created, as the first change, when the token may create projects (as `createProject`
         *     requires: `config:write` and no grants).
         *     Required scope: `flags:write`; the token must also hold `targets:write` for segment and
         *     serving changes and `config:write` for project and environment changes (403 otherwise).
         *     A 422 is a plan's 422, or a change refused by its operation's rules (nothing is written).
         */
        post: operations["applyProjectConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/configuration/promote": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote serving configurations from one environment to another
         * @description Copies what one flag (or every flag named, or every flag with a published target in
         *     `from`) serves in environment `from` (base value, rules with criteria, rollout) to
         *     environment `to` as a new draft there, and publishes it through the normal publish path
         *     when `publish` is true (with `comment`; a `confirmation_required` environment refuses it
         *     for a Bearer token, as every Bearer-token publish, code `confirmation_required`, and a
         *     console session needs `confirmation` equal to the `to` environment's key). Flags whose serving configuration in `to` is already the same
         *     are skipped. All promotions happen in one transaction. Each change is audited as its own
         *     action.
         *
         *     A missing value or segment cannot happen, so it is never a reason to refuse: values
         *     belong to the flag and segments to the project, not to an environment, so every value
         *     and segment a rule or base value names in `from` exists in `to` too. What is refused, with
         *     nothing written: the same environment on both sides (422 `invalid_combination`, field
         *     `to`); a flag named in `flags` that does not exist or has no published target in `from`
         *     (422 `reference_not_found`, field `flags.N`); with `publish`, a publish `to` refuses as
         *     `publishTarget` would (422 `comment_required` without a comment where `to` requires one;
         *     422 `confirmation_required` for a Bearer token, or for a console session whose
         *     `confirmation` is not the `to` key, where `to` requires typed confirmation); an
         *     environment `from` or `to` that does not exist (404).
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure or one of the refusals above.
         */
        post: operations["promoteConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/serve": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Serve a value now (kill switch)
         * @description Drafts and publishes, in one request and one transaction, a target whose base value is
         *     `value` (a value's display form, e.g. `"true"`, or its ulid). The draft copies what is
         *     served (rules and criteria) unless `drop_rules` is true; no rollout. The environment's
         *     comment rule applies (`comment`), and its confirmation rule holds: in a
         *     `confirmation_required` environment a Bearer-token request is refused (422), a console
         *     session needs `confirmation` equal to the environment key. Audited as the
         *     `target.created`/`target.cloned`, `target.updated` and `target.published` it makes.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure, a value the flag does not have, or a refused publish
         *     (nothing is written).
         */
        post: operations["serveFlagValue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/switch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn a flag off or back on in an environment
         * @description The console's switch (see `FlagServingState.on` for what on and off mean).
         *     - `on: false` publishes, like `serveFlagValue` with `drop_rules`, a target that serves the
         *       flag's off value to everyone (no rules, no rollout). The targeting published before
         *       stays in the history, one `restoreTarget` (or `on: true`) away.
         *     - `on: true` publishes again, like `restoreTarget`, the newest earlier publish that was
         *       on. With none, a boolean flag serves `true` to everyone; another flag has nothing to
         *       turn on (422, code `state_conflict`: publish a target instead).
         *     Already in the requested state, nothing is written. The environment's comment and
         *     confirmation rules hold as for a publish: in a `confirmation_required` environment a
         *     Bearer-token request is refused (422), a console session needs `confirmation` equal to
         *     the environment key. Answers with the environment's state afterwards.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure, a refused publish or nothing to turn on (nothing is
         *     written).
         */
        post: operations["switchFlag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish an earlier publish again (restore)
         * @description Drafts and publishes, in one request and one transaction, a new target with the base
         *     value and the rules (with their criteria, in order) of an earlier `published` or
         *     `expired` target: what that publish served goes live again, without its rollout. The
         *     restored target stays in the history as it was. This is how a kill switch is undone:
         *     serve one value to everyone (`serveFlagValue` with `drop_rules`, or `switchFlag`), then
         *     restore the publish before it. The environment's
         *     comment and confirmation rules hold as for a publish. Audited as one `target.restored`
         *     entry (the targets it writes have none of their own), which is also the one webhook event
         *     `target.restored`.
         *     Required scope: `targets:write`.
         *     A 422 means a body validation failure, a target that is a draft or scheduled (code
         *     `state_conflict`), or a refused publish (nothing is written).
         */
        post: operations["restoreTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List management audit entries
         * @description Audit entries of management API requests (including denied ones) and of system actions
         *     (scheduled publishes, automatic rollout steps), filtered by the query parameters (all
         *     combined with AND) and ordered by `sort`. Paginated with `AuditListMeta`.
         *     - `action`: for a denied request the action names the denial (`auth.missing_token`,
         *       `auth.invalid_token`, `auth.expired_token`, `scope.denied`, `grant.denied`); every other
         *       entry carries the operation's action, whatever its result. Filtering works for every
         *       action.
         *     - `result`: `success`, `denied_auth` (401), `denied_scope` (403 scope), `denied_plan`
         *       (never produced by Vexil, kept for compatibility), `denied_grant` (403 grant, role,
         *       CSRF or temporary password),
         *       `not_found` (404), `invalid` (400, 413, 415, 422), `conflict` (409), `rate_limited`
         *       (429), `error` (5xx).
         *     - `from` and `to` are inclusive bounds on `created_at`.
         *     - `kind`: `changes` keeps the entries of requests that change something and of system
         *       actions, `reads` the reads (`GET` requests, evaluations and plans, which change nothing);
         *       without it, both. The console opens the log on `changes`.
         *     - `environment_ulid`: only entries about that environment (its keys, targets, rules,
         *       rollouts and publishes).
         *     - Empty `subject_ulid`, `management_token_ulid`, `actor_ulid` and `environment_ulid` values are ignored.
         *     - A caller restricted to some projects (a management token with grants) sees only the
         *       entries of those projects, and of environment-level entries only those of environments
         *       it may reach; entries that belong to no project (authentication failures, token and
         *       account administration) only unrestricted callers see.
         *     Required scope: `audit:read`.
         *     A 422 means a query parameter is invalid (including `from` after `to`).
         */
        get: operations["listAuditLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-public-audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List public API audit entries
         * @description Audit entries of public API requests (`/v1/...` and `/ofrep/v1/...`), filtered and
         *     paginated like `GET /audit-logs`. Here `actor_ulid` matches the environment key that made
         *     the request (`key_` ulid) and `management_token_ulid` matches no entry. Unauthenticated
         *     requests have `actor_type: anonymous` and `environment: null`.
         *
         *     Which requests get an entry is the operator's setting `VEXIL_PUBLIC_AUDIT` (the same on
         *     every instance):
         *     - `every` (default): one entry per request, `count` 1.
         *     - `errors`: only requests answered with a status of 400 or above (missing or invalid
         *       keys, rate limits, unknown flags, bad input, server errors), `count` 1; successful
         *       requests leave no entry.
         *     - `aggregate`: one entry per environment key, action, subject, status code, method and
         *       minute, whose `count` is the number of such requests in that minute; `ulid` and
         *       `created_at` are those of the minute's first request. An entry is written once its
         *       minute is over (or when the instance stops).
         *     - `sample:<rate>` (a rate above 0 and at most 1, e.g. `sample:0.01`): every request
         *       answered 400 or above, and that fraction of the other requests, evenly spaced; each
         *       entry has `count` 1.
         *
         *     Entries are written in batches off the request path: an entry is listed about a second
         *     after its request. When the database falls behind, entries beyond the instance's buffer
         *     (`VEXIL_PUBLIC_AUDIT_BUFFER`) are dropped rather than delaying answers; dropped entries
         *     are counted in `vexil_buffer_rows_dropped_total{buffer="public_audit"}` on `/metrics`.
         *     Required scope: `audit:read`.
         *     A 422 means a query parameter is invalid (including `from` after `to`).
         */
        get: operations["listPublicAuditLogs"];
        put?: never;
        post?: never;
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
         *     resource's current state does not allow the change). `flag_required` (a 409): the flag
         *     is a prerequisite of other flags. `missing_token`,
         *     `invalid_token`, `expired_token`, `missing_api_key`, `invalid_api_key`,
         *     `invalid_credentials`, `key_kind_not_allowed` (an environment key of a kind the
         *     operation does not accept): 401s; `forbidden`, `scope_missing`, `csrf_failed`,
         *     `password_change_required` (a console session signed in with a temporary password):
         *     403s; `idempotency_in_flight`: 409; `database_unavailable`: 503.
         * @enum {string}
         */
        ErrorCode: "bad_request" | "missing_token" | "invalid_token" | "expired_token" | "missing_api_key" | "invalid_api_key" | "invalid_credentials" | "forbidden" | "scope_missing" | "csrf_failed" | "password_change_required" | "key_kind_not_allowed" | "not_found" | "method_not_allowed" | "idempotency_in_flight" | "payload_too_large" | "unsupported_media_type" | "validation_failed" | "invalid_query" | "invalid_cursor" | "idempotency_key_reused" | "state_conflict" | "value_in_use" | "flag_required" | "confirmation_required" | "already_exists" | "reference_not_found" | "invalid_combination" | "date_not_in_future" | "value_type_mismatch" | "comment_required" | "url_not_allowed" | "rate_limited" | "not_implemented" | "internal_error" | "database_unavailable";
        /** @description Standard error body. */
        ErrorEnvelope: {
            /** @enum {string} */
            status: "error";
            message: string;
            code: components["schemas"]["ErrorCode"];
        };
        /** @description 403 body when the token lacks the scope (or role) the operation requires. */
        ScopeErrorEnvelope: {
            /** @enum {string} */
            status: "error";
            message: string;
            code: components["schemas"]["ErrorCode"];
            /**
             * @description The operation's `x-required-scope` (a scope name, or `personal`).
             * @example flags:write
             */
            required_scope: string;
        };
        /**
         * @description A 403 body: `ScopeErrorEnvelope` (with `required_scope`) when the token lacks the scope
         *     or role, `ErrorEnvelope` when it lacks a grant or the role may not make the change.
         */
        ForbiddenError: components["schemas"]["ScopeErrorEnvelope"] | components["schemas"]["ErrorEnvelope"];
        /**
         * @description A 422 body of an operation with a request body: `ValidationError` (errors keyed by field)
         *     when the body fails validation, `ErrorEnvelope` when a state precondition or a rule of
         *     the current state refuses it.
         */
        UnprocessableError: components["schemas"]["ValidationError"] | components["schemas"]["ErrorEnvelope"];
        /**
         * @description Request-body validation failure. `errors` maps each failing field (nested fields as
         *     dotted paths such as `criteria.0.values`; `body` for the body as a whole) to messages.
         */
        ValidationError: {
            message: string;
            code: components["schemas"]["ErrorCode"];
            errors: {
                [key: string]: string[];
            };
        };
        /** @description Body of a successful deletion or revocation. */
        SuccessStatus: {
            /** @enum {string} */
            status: "success";
        };
        /** @description Pagination of a list. */
        ListMeta: {
            per_page: number;
            /** @description Cursor of the next page; null when there are no more results. */
            next_cursor: string | null;
            /** @description Cursor of the previous page; null on the first page. */
            prev_cursor: string | null;
        };
        /** @description Pagination of an audit list. */
        AuditListMeta: {
            per_page: number;
            /** @enum {string} */
            sort: "created_at_desc" | "created_at_asc";
            /** @description Cursor of the next page; null when there are no more results. */
            next_cursor: string | null;
        };
        /** @enum {string} */
        FlagType: "boolean" | "number" | "string" | "json";
        /**
         * @description What a criterion compares. `attribute` a context attribute, `context` the context identifier, `segment` the context's segments.
         * @enum {string}
         */
        Selector: "attribute" | "context" | "segment";
        /**
         * @description `equal`, `notequal`, `in`, `notin` for every selector; the others for `attribute` only.
         *     Positive comparers match when any attribute value matches any criterion value; `not...`
         *     comparers are their negation; `isnull` matches an absent attribute or one whose values
         *     are all empty strings; `gt`, `gte`, `lt`, `lte` compare numerically.
         *
         *     `semver_eq`, `semver_lt`, `semver_gt`, `semver_lte`, `semver_gte` compare Semantic
         *     Versioning 2.0.0 versions by precedence (`MAJOR.MINOR.PATCH[-pre-release][+build]`; one
         *     leading lowercase `v` is accepted; a pre-release is lower than its release, pre-release
         *     identifiers compare numerically when numeric and below alphanumeric ones; build metadata
         *     is ignored, so `1.0.0+a` equals `1.0.0+b`). `before` and `after` compare RFC 3339 date-times
         *     with an offset (`2026-01-01T00:00:00Z`, `2026-01-01T09:30:00.5+02:00`; `T` and `Z` in
         *     capitals) as instants. An attribute value that is not a version (semver comparers) or
         *     not a date-time with an offset (`before`, `after`) never matches; the server counts such
         *     values in the metric `vexil_evaluation_unreadable_attribute_values_total`. `matches`
         *     tests a regular expression (a linear-time subset of JavaScript's syntax: literals, `.`,
         *     classes, `\d \w \s` and their negations, groups, `|`, `* + ? {n,m}` up to 1000, `^` and
         *     `$` for the start and end of the value; no back-references, lookaround, `\b` or flags;
         *     at most 500 characters) against each attribute value, matching when it matches some
         *     part of it (anchor with `^...$` for the whole value); matching takes time linear in the
         *     value's length, whatever the pattern.
         * @enum {string}
         */
        Comparer: "equal" | "notequal" | "in" | "notin" | "gt" | "gte" | "lt" | "lte" | "isnull" | "notnull" | "contains" | "notcontains" | "startswith" | "endswith" | "notstartswith" | "notendswith" | "semver_eq" | "semver_lt" | "semver_gt" | "semver_lte" | "semver_gte" | "before" | "after" | "matches";
        /**
         * @description `manual`: the percentage is set by hand. `automatic`: 1, 5, 10, 25, 50, 100 %, one step per interval.
         * @enum {string}
         */
        RolloutMode: "manual" | "automatic";
        /** @enum {string} */
        TokenScope: "projects:read" | "flags:read" | "flags:write" | "targets:read" | "targets:write" | "audit:read" | "config:write";
        /**
         * @description Rate-limit tier: `standard` 60, `elevated` 300 requests per minute per token, `unlimited` no ceiling.
         * @enum {string}
         */
        TokenTier: "standard" | "elevated" | "unlimited";
        /** @enum {string} */
        AccountRole: "owner" | "admin" | "member";
        /**
         * @description `server` keys get compiled rules and may list evaluated flags; `mobile` and `client` keys get values evaluated for their context.
         * @enum {string}
         */
        EnvironmentKeyKind: "server" | "mobile" | "client";
        Project: {
            /**
             * @description `prj_` followed by a ULID.
             * @example prj_01J8Z3K7Q9V2M8N4P6R5S1T0W0
             */
            ulid: string;
            /** @example shop */
            key: string;
            /** @example Web shop */
            name: string;
            /** @description Empty string when none was given. */
            description: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ProjectCreate: {
            /** @description Unique among projects; cannot change. */
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            /** @description Defaults to the empty string when absent. */
            description?: string;
            /**
             * @description Environments to create with the project (keys unique). Absent: `development` and
             *     `production`. Empty: none.
             */
            environments?: components["schemas"]["ProjectEnvironmentCreate"][];
        };
        /**
         * @description An environment created together with its project, with the settings `EnvironmentCreate`
         *     takes (each with the same default when absent), so a project and its environments'
         *     colours and rules are made in one request.
         */
        ProjectEnvironmentCreate: {
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            /** @description Defaults to null when absent. */
            description?: string | null;
            /** @description Defaults to `#808080` when absent. */
            color?: string;
            /** @description Defaults to `false` when absent. */
            comments_required?: boolean;
            /** @description Defaults to `false` when absent. */
            confirmation_required?: boolean;
        };
        ProjectUpdate: {
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            /** @description Omitted keeps the current description; an empty string clears it. */
            description?: string;
        };
        ProjectResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Project"];
        };
        ProjectListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Project"][];
            meta: components["schemas"]["ListMeta"];
        };
        Environment: {
            /**
             * @description `env_` followed by a ULID.
             * @example env_01J8Z3K7Q9V2M8N4P6R5S1T0W1
             */
            ulid: string;
            /** @example production */
            key: string;
            /** @example Production */
            name: string;
            description: string | null;
            /** @example #dc2626 */
            color: string;
            /** @description When true, publishing a target needs a non-empty comment. */
            comments_required: boolean;
            /** @description When true, publishing through the management API is rejected (422), and so is every update or deletion of the environment itself or of its project; publish, change and delete them in the web interface with typed confirmation. */
            confirmation_required: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        EnvironmentCreate: {
            /** @description Unique within the project; cannot change. */
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            /** @description Defaults to null when absent. */
            description?: string | null;
            /** @description Defaults to `#808080` when absent. */
            color?: string;
            /** @description Defaults to `false` when absent. */
            comments_required?: boolean;
            /** @description Defaults to `false` when absent. */
            confirmation_required?: boolean;
        };
        /** @description Omitted optional fields keep their current values. */
        EnvironmentUpdate: {
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            description?: string | null;
            color?: string;
            comments_required?: boolean;
            confirmation_required?: boolean;
            /**
             * @description Typed confirmation, for an environment whose stored `confirmation_required` is true:
             *     accepted only from a console session, and only when it equals the environment's key,
             *     typed by the person in the settings dialog. Bearer-token requests to such an
             *     environment are refused whatever they send. Ignored where the stored setting is off.
             */
            confirmation?: string;
        };
        EnvironmentResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Environment"];
        };
        EnvironmentListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Environment"][];
            meta: components["schemas"]["ListMeta"];
        };
        /** @description An environment key without its secret. */
        EnvironmentKey: {
            /**
             * @description `key_` followed by a ULID.
             * @example key_01J8Z3K7Q9V2M8N4P6R5S1T0W2
             */
            ulid: string;
            kind: components["schemas"]["EnvironmentKeyKind"];
            /** @example Checkout service */
            name: string;
            /**
             * @description The secret's kind prefix and last four characters.
             * @example srv_…x7Qa
             */
            masked_key: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            revoked_at: string | null;
        };
        EnvironmentKeyCreate: {
            kind: components["schemas"]["EnvironmentKeyKind"];
            /**
             * @description Default `Server key`, `Mobile key` or `Client key`. Not blank, without control
             *     characters other than tab, line feed and carriage return, valid Unicode.
             */
            name?: string;
        };
        /** @description A newly created environment key with its secret, shown only once. */
        EnvironmentKeyCreated: {
            /** @example key_01J8Z3K7Q9V2M8N4P6R5S1T0W2 */
            ulid: string;
            kind: components["schemas"]["EnvironmentKeyKind"];
            name: string;
            masked_key: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Always null for a new key.
             */
            revoked_at: string | null;
            /**
             * @description The secret (`srv_`, `mob_` or `cli_` followed by at least 32 base62 characters). Store it now; it is never shown again.
             * @example srv_4Xb9KqP2mZ7rT1vW8yN3cD6fH0jL5sA9
             */
            key: string;
        };
        EnvironmentKeyListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["EnvironmentKey"][];
        };
        EnvironmentKeyCreatedResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["EnvironmentKeyCreated"];
        };
        /** @description Resource grants of a management token. Both lists empty means every project. */
        TokenGrants: {
            /** @description Keys of wholly granted projects. */
            projects: string[];
            /** @description Singly granted environments. */
            environments: components["schemas"]["EnvironmentGrant"][];
        };
        /** @description One singly granted environment. */
        EnvironmentGrant: {
            /** @description Project key. */
            project: string;
            /** @description Environment key. */
            environment: string;
        };
        /**
         * @description Grants to give a new management token. Absent or both lists empty: every project. Every
         *     project and environment must exist (422 otherwise).
         */
        TokenGrantsWrite: {
            projects?: string[];
            environments?: components["schemas"]["EnvironmentGrantWrite"][];
        };
        /** @description One environment to grant, named by project and environment keys. */
        EnvironmentGrantWrite: {
            project: string;
            environment: string;
        };
        /** @description A management token without its secret. */
        ManagementToken: {
            /**
             * @description `mgt_` followed by a ULID (26 characters; the secret is longer).
             * @example mgt_01J8Z3K7Q9V2M8N4P6R5S1T0W3
             */
            ulid: string;
            name: string;
            scopes: components["schemas"]["TokenScope"][];
            tier: components["schemas"]["TokenTier"];
            grants: components["schemas"]["TokenGrants"];
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        ManagementTokenCreate: {
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            scopes: components["schemas"]["TokenScope"][];
            /** @description Defaults to `standard` when absent. */
            tier?: components["schemas"]["TokenTier"];
            grants?: components["schemas"]["TokenGrantsWrite"];
            /**
             * Format: date-time
             * @description Must be in the future (422 otherwise). Null or absent never expires.
             */
            expires_at?: string | null;
        };
        /** @description A newly created management token with its secret, shown only once. */
        ManagementTokenCreated: {
            /** @example mgt_01J8Z3K7Q9V2M8N4P6R5S1T0W3 */
            ulid: string;
            name: string;
            scopes: components["schemas"]["TokenScope"][];
            tier: components["schemas"]["TokenTier"];
            grants: components["schemas"]["TokenGrants"];
            /** Format: date-time */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description Always null for a new token.
             */
            revoked_at: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * @description The secret (`mgt_` followed by at least 32 base62 characters). Store it now; it is never shown again.
             * @example mgt_Zr8Kq2P7mX4tV1wB9yN3cD6fH0jL5sA2Qe
             */
            token: string;
        };
        ManagementTokenListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["ManagementToken"][];
            meta: components["schemas"]["ListMeta"];
        };
        ManagementTokenCreatedResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["ManagementTokenCreated"];
        };
        Account: {
            /**
             * @description `usr_` followed by a ULID.
             * @example usr_01J8Z3K7Q9V2M8N4P6R5S1T0W4
             */
            ulid: string;
            name: string;
            /** Format: email */
            email: string;
            role: components["schemas"]["AccountRole"];
            /** @description Keys of the projects a member works on, in project creation order; empty for owners and admins (who reach every project). */
            projects: string[];
            /**
             * @description The account's console password: `none` (cannot sign in to the console yet), `temporary`
             *     (set by Vexil or by an owner or admin; only lets the person choose their own, until
             *     `password_temporary_until`), `set` (the person's own).
             * @enum {string}
             */
            password_status: "none" | "temporary" | "set";
            /**
             * Format: date-time
             * @description When a temporary password stops working; null otherwise.
             */
            password_temporary_until: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        AccountCreate: {
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            /**
             * Format: email
             * @description Unique among accounts (case-insensitive); stored and shown in lower case.
             */
            email: string;
            role: components["schemas"]["AccountRole"];
            /** @description Members only; every key must name an existing project. */
            projects?: string[];
        };
        /** @description Full replacement of what can change; the e-mail address cannot. */
        AccountUpdate: {
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            role: components["schemas"]["AccountRole"];
            /** @description Members only; every key must name an existing project. Omitted means none. */
            projects?: string[];
        };
        AccountResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Account"];
        };
        AccountListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Account"][];
            meta: components["schemas"]["ListMeta"];
        };
        PersonalAccessTokenCreate: {
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            /**
             * Format: date-time
             * @description Must be in the future (422 otherwise). Null or absent never expires.
             */
            expires_at?: string | null;
        };
        /** @description A newly created personal access token with its secret, shown only once. */
        PersonalAccessTokenCreated: {
            /**
             * @description `tok_` followed by a ULID.
             * @example tok_01J8Z3K7Q9V2M8N4P6R5S1T0W5
             */
            ulid: string;
            name: string;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * @description The secret (`pat_` followed by at least 32 base62 characters). Store it now; it is never shown again.
             * @example pat_Qe7Kr2P8mX4tV1wB9yN3cD6fH0jL5sA2Zz
             */
            token: string;
        };
        PersonalAccessTokenCreatedResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["PersonalAccessTokenCreated"];
        };
        Flag: {
            /**
             * @description `flg_` followed by a ULID.
             * @example flg_01J8Z3K7Q9V2M8N4P6R5S1T0W6
             */
            ulid: string;
            /** @example new-checkout */
            key: string;
            /** @example New checkout */
            name: string;
            type: components["schemas"]["FlagType"];
            description: string | null;
            /** @description Exempts the flag from the stale-flag list. */
            permanent: boolean;
            /** @description Whether mobile keys receive the flag. */
            include_in_mobile: boolean;
            /** @description Whether client (browser) keys receive the flag. */
            include_in_client: boolean;
            /**
             * @description Labels that group flags (a team, a release, a kind): lower-case letters, digits and
             *     `-`, `_`, `:`, `.`, at most 20 per flag, without duplicates, kept in the order given.
             *     `listFlags` filters by one with `tag`.
             */
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Only with `include=serving` (`listFlags`, `getFlag`), every environment in creation order. */
            environments?: components["schemas"]["FlagServingState"][];
            /**
             * Format: date-time
             * @description Only with `include=serving`; the last reported use in any environment.
             */
            last_used_at?: string | null;
            /**
             * Format: date-time
             * @description Only with `include=serving`; the last server-side evaluation through the public API
             *     in any environment (`FlagInsights.last_evaluated_at`), where `last_used_at` counts SDK
             *     usage reports only.
             */
            last_evaluated_at?: string | null;
            /** @description Only with `include=serving`. */
            stale?: boolean;
        };
        FlagServingState: {
            environment_key: string;
            /**
             * Format: int64
             * @description Evaluations of the flag in the environment in the last 24 hours (the current UTC hour
             *     and the 23 before it), as `total_24h` of `listFlagEvaluationHours` counts them.
             */
            evaluations_24h: number;
            /**
             * @description Whether the flag is on in the environment. It is off when every context gets the
             *     flag's off value: `false` for a boolean flag, the default value for other types. That
             *     is, nothing is published and the default is the off value, or the newest published
             *     target serves the off value with no rules and no rollout in progress. Anything else
             *     is on. `switchFlag` turns it off or back on.
             */
            on: boolean;
            /**
             * Format: int64
             * @description The number of rules of the newest published target (0 with none).
             */
            rules_count: number;
            /**
             * Format: date-time
             * @description When the newest published target was published (the last change of what is served); null when nothing is published.
             */
            published_at: string | null;
            /** @description Display form of the base value served now (the newest published target's, else the flag's default); null when there is none. */
            value: string | null;
            /** @enum {string} */
            served_by: "target" | "default" | "unavailable";
            serves: components["schemas"]["FlagServes"];
            rollout_percentage: number | null;
            /** @enum {string|null} */
            rollout_status: "active" | "paused" | null;
            /** @description A draft target waits in this environment. */
            draft: boolean;
            /**
             * Format: date-time
             * @description When a scheduled target will publish, if one is.
             */
            scheduled_at: string | null;
        };
        /**
         * @description How the newest published target chooses what a context gets: `rules` when it has rules
         *     (a matching rule may serve another value than `value`), `split` when it has none and its
         *     base is a weighted split over more than one value, `value` otherwise (one value for every
         *     context, and with nothing published). A rollout in progress is told by
         *     `rollout_percentage`, prerequisites by the flag's targeting.
         * @enum {string}
         */
        FlagServes: "value" | "rules" | "split";
        FlagCreate: {
            /** @description Unique within the project; cannot change. */
            key: string;
            name: string;
            type: components["schemas"]["FlagType"];
            /** @description Defaults to null when absent. */
            description?: string | null;
            /** @description Defaults to `true` when absent. */
            include_in_mobile?: boolean;
            /** @description Defaults to `true` when absent. */
            include_in_client?: boolean;
            /**
             * @description Labels that group flags (a team, a release, a kind): lower-case letters, digits and
             *     `-`, `_`, `:`, `.`, at most 20 per flag, without duplicates, kept in the order given.
             *     `listFlags` filters by one with `tag`.
             */
            tags?: string[];
        };
        /** @description `key` and `type` cannot change. Omitted optional fields keep their current values. */
        FlagUpdate: {
            name: string;
            permanent: boolean;
            description?: string | null;
            include_in_mobile?: boolean;
            include_in_client?: boolean;
            /**
             * @description Labels that group flags (a team, a release, a kind): lower-case letters, digits and
             *     `-`, `_`, `:`, `.`, at most 20 per flag, without duplicates, kept in the order given.
             *     `listFlags` filters by one with `tag`.
             */
            tags?: string[];
        };
        FlagResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Flag"];
        };
        FlagListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Flag"][];
            meta: components["schemas"]["ListMeta"];
        };
        BulkDeleteRequest: {
            /** @description 1 to 100 flag keys, no duplicates. Keys naming no flag are reported in `not_found`. */
            flag_keys: string[];
        };
        BulkDeleteResult: {
            /** @description Keys of the deleted flags, in request order. */
            deleted: string[];
            /** @description Requested keys that name no flag of the project, in request order. */
            not_found: string[];
        };
        BulkDeleteResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["BulkDeleteResult"];
        };
        /**
         * @description The context `evaluateFlag` evaluates for: the same document as the public API's `Context`
         *     (sent there in the `X-VEXIL-CONTEXT` header).
         */
        EvaluationContext: {
            /** @description Actor category, e.g. user, organization, service. */
            type: string;
            /** @description Stable unique identifier; used for matching and percentage bucketing. */
            identifier: string;
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
        EvaluationResult: {
            key: string;
            name: string;
            type: components["schemas"]["FlagType"];
            /** @description The served value, typed as the flag (boolean, number, string or any JSON); null when `resolved_by` is `unavailable`. */
            value: unknown;
            /**
             * @description `rule`: a targeting rule matched. `rollout`: the rollout chose the newest target and no
             *     rule matched. `target`: the published target's value. `default`: no published target,
             *     the flag's default value. `prerequisite`: a prerequisite of the chosen target failed,
             *     so the flag's default value is served. `unavailable`: the flag has no value to serve.
             * @enum {string}
             */
            resolved_by: "rule" | "rollout" | "target" | "default" | "prerequisite" | "unavailable";
            split?: components["schemas"]["EvaluationSplit"];
            explanation: components["schemas"]["EvaluationExplanation"];
        };
        /**
         * @description Present only when a weighted split chose the value: which split (`rule`: the
         *     position of the matching rule; null: the target's base split), the served value
         *     (`variant`, its display form) and its share (`weight`, thousandths of a percent).
         */
        EvaluationSplit: {
            rule: number | null;
            variant: string;
            weight: number;
        };
        /**
         * @description Why the value was served, step by step as the evaluation went: which published target
         *     answered, the rollout and the context's bucket while one is in progress, and the rules
         *     of that target tried in order, up to and including the one that matched (`matched`), each
         *     rule that did not match naming the first criterion that failed. No rule matched: the
         *     target's base value was served, or with no target the flag's default.
         */
        EvaluationExplanation: {
            /**
             * @description `newest`: the newest published target. `previous`: the one published before it, which
             *     contexts outside a rollout in progress get. `none`: no published target answered (the
             *     flag's default value, or nothing to serve).
             * @enum {string}
             */
            target: "newest" | "previous" | "none";
            /** @description The target whose rules were tried; null with `target` `none`. */
            target_ulid: string | null;
            rollout: components["schemas"]["EvaluationRolloutCheck"];
            /**
             * @description The key of the first prerequisite flag of that target that did not serve one of its
             *     required values: the flag's default value was served and no rule was tried. Null
             *     when every prerequisite held or the target has none.
             */
            prerequisite_failed: string | null;
            rules: components["schemas"]["EvaluationRuleCheck"][];
        };
        /** @description The rollout in progress and where the context falls in it; null when no rollout is in progress. */
        EvaluationRolloutCheck: {
            percentage: number;
            /** @description The context's bucket (0 to 9999); inside the rollout when below percentage × 100. Null for no context. */
            bucket: number | null;
            in_rollout: boolean;
        } | null;
        EvaluationRuleCheck: {
            /** @description The rule's position in its target (0 first). */
            position: number;
            ulid: string;
            description: string;
            /** @description Every criterion matched, so this rule served its value. */
            matched: boolean;
            /** @description The position of the first criterion (0 first) that did not match; null when the rule matched. */
            first_unmatched_criterion: number | null;
        };
        /**
         * @description The input of `evaluateFlagForContext`: the context to evaluate for, the same document as
         *     the `context` query parameter of `evaluateFlag` (as a JSON value rather than JSON text).
         *     Absent: no context.
         */
        ManagementEvaluationRequest: {
            context?: components["schemas"]["EvaluationContext"];
        };
        EvaluationResultResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["EvaluationResult"];
        };
        FlagValue: {
            /**
             * @description `val_` followed by a ULID.
             * @example val_01J8Z3K7Q9V2M8N4P6R5S1T0WA
             */
            ulid: string;
            /**
             * @description The value in display form (json values compact, numbers canonical).
             * @example true
             */
            display: string;
            /** @description The parsed value, typed as the flag (boolean, number, string, or any JSON document including null). */
            value: unknown;
            /** @description Whether this is the flag's default value (at most one per flag). */
            default: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        FlagValueWrite: {
            /**
             * @description Must fit the flag type: `true`/`false` (boolean); a JSON number a 64-bit float holds
             *     as written (number); any string (string); a JSON document of at most 10 levels of
             *     nesting whose numbers a 64-bit float holds as written (json). At most 64 KB
             *     (65536 bytes of UTF-8) once normalised. Must differ from the flag's other values after
             *     normalisation (see `createFlagValueForFlag`).
             */
            display: string;
        };
        FlagValueResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["FlagValue"];
        };
        FlagValueListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["FlagValue"][];
        };
        /** @description A version of a flag's configuration in one environment. */
        Target: {
            /**
             * @description `tgt_` followed by a ULID.
             * @example tgt_01J8Z3K7Q9V2M8N4P6R5S1T0WB
             */
            ulid: string;
            flag_ulid: string;
            environment_ulid: string;
            /** @description Base value, served when no rule matches (with a split, only to contexts without its bucketing value). */
            value_ulid: string;
            split?: components["schemas"]["Split"];
            /**
             * @description `draft` (editable), `scheduled` (will publish at `scheduled_at`), `published`
             *     (serving, or serving the rest of a rollout), `expired` (replaced by a newer publish).
             * @enum {string}
             */
            status: "draft" | "scheduled" | "published" | "expired";
            comment: string | null;
            /**
             * Format: date-time
             * @description Set while the target is `scheduled`.
             */
            scheduled_at: string | null;
            rollout_percentage: number | null;
            /** @enum {string|null} */
            rollout_mode: "manual" | "automatic" | null;
            /**
             * @description `active` or `paused` only on a draft, scheduled or published target: an expired
             *     target's rollout is over (`completed`), whatever step it had reached.
             * @enum {string|null}
             */
            rollout_status: "active" | "paused" | "completed" | null;
            /**
             * Format: date-time
             * @description When the scheduler advances this target's automatic rollout to its next step: the
             *     start of the current step plus the step interval (server setting
             *     `VEXIL_ROLLOUT_STEP_MS`, default one hour). The scheduler checks every
             *     `VEXIL_SCHEDULER_INTERVAL_MS` (default one second), so the step is taken at the first
             *     check from this time on; a time already past means that check is due. A step starts
             *     when the target is published and again at each step and at `resume`. Null unless the
             *     target is published with an `automatic` rollout that is `active` (a paused rollout does
             *     not advance; a manual one only moves by `updateRollout`).
             */
            readonly rollout_next_step_at: string | null;
            /**
             * @description The percentage the automatic rollout moves to at `rollout_next_step_at`: the next of
             *     the steps 1, 5, 10, 25, 50 and 100 %; reaching 100 completes the rollout. Null exactly
             *     when `rollout_next_step_at` is null.
             */
            readonly rollout_next_percentage: number | null;
            /** Format: date-time */
            published_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description At least one field. */
        TargetUpdate: {
            /** @description Ulid of a value of this flag. */
            value_ulid?: string;
            split?: components["schemas"]["SplitWrite"];
            comment?: string | null;
        };
        TargetPublish: {
            /**
             * @description Typed confirmation, for environments with `confirmation_required`: accepted only from
             *     a console session, and only when it equals the environment's key, typed by the
             *     person in the publish dialog (field-keyed 422 otherwise). Bearer-token requests to such
             *     an environment are refused (422) whatever they send.
             */
            confirmation?: string;
            /** @description Required (non-empty) when the environment has `comments_required`. */
            comment?: string | null;
            /**
             * Format: date-time
             * @description Future date-time to publish at; null or absent publishes now.
             */
            scheduled_at?: string | null;
            /** @description true configures a rollout, false removes a configured one, absent keeps the draft's configuration. */
            rollout_enabled?: boolean;
            rollout_mode?: components["schemas"]["RolloutMode"];
            /** @description Required when `rollout_enabled` is true and the mode is `manual`; prohibited otherwise. */
            rollout_percentage?: number;
        };
        TargetResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Target"];
        };
        TargetListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Target"][];
        };
        /**
         * @description Typed confirmation, for environments with `confirmation_required`: accepted only from a
         *     console session, and only when it equals the environment's key, typed by the person
         *     (field-keyed 422 otherwise). Bearer-token requests to such an environment are refused
         *     (422, code `confirmation_required`) whatever they send.
         */
        RolloutConfirmation: string;
        /** @description Optional body of `completeRollout`. */
        RolloutComplete: {
            confirmation?: components["schemas"]["RolloutConfirmation"];
        };
        RolloutCreate: {
            confirmation?: components["schemas"]["RolloutConfirmation"];
            rollout_mode: components["schemas"]["RolloutMode"];
            /** @description Required for `manual`, prohibited for `automatic`. */
            rollout_percentage?: number;
        };
        /** @description Exactly one of `action` and `rollout_percentage`, and the typed `confirmation` where needed. */
        RolloutUpdate: {
            confirmation?: components["schemas"]["RolloutConfirmation"];
            /** @enum {string} */
            action?: "pause" | "resume";
            /** @description Manual rollouts only. */
            rollout_percentage?: number;
        };
        /** @description The rollout fields of a target. */
        RolloutSubset: {
            /** @description The target's ulid. */
            ulid: string;
            rollout_mode: components["schemas"]["RolloutMode"];
            /** @description The manual percentage, or 1 for an automatic rollout. */
            rollout_percentage: number;
            /** @enum {string} */
            rollout_status: "active";
        };
        /** @description The rollout fields of a target whose rollout was completed. */
        RolloutCompleteSubset: {
            /** @description The target's ulid. */
            ulid: string;
            /** @enum {integer} */
            rollout_percentage: 100;
            /** @enum {string} */
            rollout_status: "completed";
        };
        RolloutSubsetResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["RolloutSubset"];
        };
        RolloutCompleteSubsetResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["RolloutCompleteSubset"];
        };
        SignIn: {
            email: string;
            password: string;
        };
        PasswordChange: {
            current_password: string;
            /** @description At least 12 characters. */
            new_password: string;
        };
        PasswordSet: {
            /** @description At least 12 characters. */
            password: string;
        };
        ConsoleSession: {
            /** @description `ses_` followed by a ULID. */
            ulid: string;
            account: components["schemas"]["ConsoleAccount"];
            /** @description Send as `X-CSRF-Token` with every POST, PUT, PATCH and DELETE of this session. Keep it in memory only. */
            csrf_token: string;
            /** Format: date-time */
            expires_at: string;
            /**
             * @description True when the session signed in with a temporary password: it may only read itself,
             *     sign out and choose the account's own password (`PUT /session/password`); other
             *     operations are a 403 with code `password_change_required`.
             */
            password_change_required: boolean;
        };
        ConsoleAccount: {
            ulid: string;
            name: string;
            email: string;
            role: components["schemas"]["AccountRole"];
            /** @description Project ulids a member was given; null for owners and admins (every project). */
            projects: string[] | null;
        };
        ConsoleSessionResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["ConsoleSession"];
        };
        /**
         * @description What a delivery announces: the audit action of the change it follows, or `webhook.ping`
         *     for a test. A flag deleted by `bulkDeleteFlags` is announced as `flag.deleted`, like one
         *     deleted on its own (one event per flag, in the request's order); `flag.bulk_deleted`
         *     follows them, once per request, with the list of deleted flags as `before`, so a
         *     subscription taking `flag.*` receives both. A switch (`switchFlag`) or a restore
         *     (`restoreTarget`) is one event, `target.switched` or `target.restored`, whatever targets
         *     it writes.
         * @enum {string}
         */
        WebhookEventType: "flag.created" | "flag.updated" | "flag.deleted" | "flag.bulk_deleted" | "flag_value.created" | "flag_value.updated" | "flag_value.deleted" | "flag_value.default_set" | "target.created" | "target.cloned" | "target.updated" | "target.deleted" | "target.published" | "target.scheduled" | "target.rollout_initialized" | "target.rollout_updated" | "target.rollout_deleted" | "target.rollout_completed" | "target.switched" | "target.restored" | "target_rule.created" | "target_rule.updated" | "target_rule.deleted" | "target_rule.reordered" | "segment.created" | "segment.updated" | "segment.deleted" | "environment.created" | "environment.updated" | "environment.deleted" | "project.updated" | "webhook.ping";
        /**
         * @description An event a subscription takes: `*` (every event), a family (`flag.*` takes every
         *     `flag.` event but not `flag_value.` ones; `target.*` includes the rollout events), or one
         *     event type (`WebhookEventType`).
         * @enum {string}
         */
        WebhookEventFilter: "*" | "flag.*" | "flag_value.*" | "target.*" | "target_rule.*" | "segment.*" | "environment.*" | "project.*" | "flag.created" | "flag.updated" | "flag.deleted" | "flag.bulk_deleted" | "flag_value.created" | "flag_value.updated" | "flag_value.deleted" | "flag_value.default_set" | "target.created" | "target.cloned" | "target.updated" | "target.deleted" | "target.published" | "target.scheduled" | "target.rollout_initialized" | "target.rollout_updated" | "target.rollout_deleted" | "target.rollout_completed" | "target.switched" | "target.restored" | "target_rule.created" | "target_rule.updated" | "target_rule.deleted" | "target_rule.reordered" | "segment.created" | "segment.updated" | "segment.deleted" | "environment.created" | "environment.updated" | "environment.deleted" | "project.updated" | "webhook.ping";
        WebhookWrite: {
            /**
             * Format: uri
             * @description Where deliveries are POSTed: an absolute http or https URL without credentials. The
             *     server then refuses (422 `url_not_allowed`) http URLs unless it allows them
             *     (`VEXIL_WEBHOOK_ALLOW_HTTP`), hosts that do not resolve, and hosts that resolve to
             *     loopback, link-local or private addresses unless it allows them
             *     (`VEXIL_WEBHOOK_ALLOW_PRIVATE`).
             */
            url: string;
            events: components["schemas"]["WebhookEventFilter"][];
            /** @description Keys of environments of the project; events of other environments are not delivered (events about no environment always are). Absent or empty means every environment. An unknown key is a 422 on `environments.N`. */
            environments?: string[];
            description?: string | null;
            /** @description Absent means true. */
            enabled?: boolean;
        };
        Webhook: {
            /** @description `whk_` followed by a ULID. */
            ulid: string;
            url: string;
            events: components["schemas"]["WebhookEventFilter"][];
            environments: string[];
            description: string | null;
            enabled: boolean;
            /** @description Failed delivery attempts since the last success. */
            consecutive_failures: number;
            /** @description Why the server disabled the subscription; null while enabled or when disabled by a person. */
            disabled_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookCreated: components["schemas"]["Webhook"] & {
            /** @description The signing secret (`whsec_` and base64), shown only this once. */
            secret: string;
        };
        WebhookResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Webhook"];
        };
        WebhookCreatedResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["WebhookCreated"];
        };
        WebhookListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Webhook"][];
            meta: components["schemas"]["ListMeta"];
        };
        WebhookDelivery: {
            /** @description `whe_` followed by a ULID; also the `webhook-id` header of every attempt. */
            ulid: string;
            event_type: components["schemas"]["WebhookEventType"];
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            /** @description The event's place in the subscription's order (commit order, from 1); null for pings, which are outside it. */
            sequence: number | null;
            attempts: number;
            last_status_code: number | null;
            last_error: string | null;
            /** @description How long the last attempt took, from resolving the host to the answer's body, in milliseconds. */
            last_duration_ms: number | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            delivered_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description Absent or empty body, or absent member, means a grace period of a day (86400 seconds). */
        WebhookSecretRotationRequest: {
            /** @description How long the previous secret keeps signing beside the new one; 0 ends it at once. A day when absent. */
            grace_period_seconds?: number;
        };
        WebhookSecretRotation: {
            /** @description The new signing secret (`whsec_` and base64), shown only this once. */
            secret: string;
            /**
             * Format: date-time
             * @description Until when the previous secret signs too; null when it stopped at once.
             */
            previous_secret_expires_at: string | null;
        };
        WebhookSecretRotationResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["WebhookSecretRotation"];
        };
        WebhookDeliveryResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["WebhookDelivery"];
        };
        WebhookDeliveryListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["WebhookDelivery"][];
            meta: components["schemas"]["ListMeta"];
        };
        /**
         * @description A project's configuration, named by keys. Published as a JSON Schema in
         *     `specs/project-configuration.schema.json`.
         */
        ProjectConfiguration: {
            /**
             * @description Version of this format.
             * @enum {integer}
             */
            version: 1;
            project: components["schemas"]["ConfigurationProject"];
            environments: components["schemas"]["ConfigurationEnvironment"][];
            segments: components["schemas"]["ConfigurationSegment"][];
            flags: components["schemas"]["ConfigurationFlag"][];
        };
        ConfigurationProject: {
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            description: string;
        };
        ConfigurationEnvironment: {
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            description: string | null;
            color: string;
            comments_required: boolean;
            confirmation_required: boolean;
        };
        ConfigurationSegment: {
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            description: string | null;
            included: string[];
            excluded: string[];
            rules: components["schemas"]["SegmentRuleWrite"][];
        };
        ConfigurationFlag: {
            key: string;
            /**
             * @description Not blank (at least one character that is not white space), without control
             *     characters other than tab, line feed and carriage return, valid Unicode (no lone
             *     surrogates).
             */
            name: string;
            type: components["schemas"]["FlagType"];
            description: string | null;
            permanent: boolean;
            include_in_mobile: boolean;
            include_in_client: boolean;
            /**
             * @description Labels that group flags (a team, a release, a kind): lower-case letters, digits and
             *     `-`, `_`, `:`, `.`, at most 20 per flag, without duplicates, kept in the order given.
             *     `listFlags` filters by one with `tag`.
             */
            tags?: string[];
            /** @description The flag's values in display form; exactly one is the default when there are any. */
            values: components["schemas"]["ConfigurationFlagValue"][];
            /** @description What the flag serves, by environment key; an environment without an entry has no published target for the flag. */
            environments: {
                [key: string]: components["schemas"]["ConfigurationServing"];
            };
        };
        ConfigurationFlagValue: {
            /** @description The value's display form (`true`, `42`, `blue`, compact JSON). */
            value: string;
            default: boolean;
        };
        ConfigurationServing: {
            /** @description Display form of the base value (one of the flag's values). */
            value: string;
            /**
             * @description The publish comment when applying the file changes what the flag serves here (it takes
             *     the place of the request's `comment`). A comment is history, not configuration: a plan
             *     never compares it and an export leaves it out.
             */
            comment?: string | null;
            /** @description Targeting rules in evaluation order. */
            rules: components["schemas"]["ConfigurationRule"][];
            split?: components["schemas"]["ConfigurationSplit"];
            /**
             * @description Flags of the file that must serve one of the given values for this configuration to
             *     apply (see `replaceTargetPrerequisites`), in the order they are checked. Absent or
             *     empty: none (an export leaves it out then). `apply` and `promote` set exactly these;
             *     `serve` keeps those of the served target.
             */
            prerequisites?: components["schemas"]["ConfigurationPrerequisite"][];
            rollout: components["schemas"]["ConfigurationRollout"];
        };
        ConfigurationRule: {
            description: string;
            /** @description Display form of the value served when the rule matches. */
            value: string;
            criteria: components["schemas"]["CriterionWrite"][];
            split?: components["schemas"]["ConfigurationSplit"];
        };
        /**
         * @description A weighted split of a rule or of the base (schema `Split`): values by display form with
         *     their weights in thousandths of a percent, summing to 100000. `value` of the rule or
         *     base is then served to contexts without a bucketing value. Absent: no split (an export
         *     writes it only where there is one).
         */
        ConfigurationSplit: {
            /** @description Context attribute to bucket by; absent or null for the context identifier. */
            attribute?: string | null;
            shares: components["schemas"]["ConfigurationSplitShare"][];
        };
        ConfigurationSplitShare: {
            /** @description Display form of one of the flag's values. */
            value: string;
            weight: number;
        };
        ConfigurationPrerequisite: {
            /** @description Key of another flag of the file. */
            flag: string;
            /** @description Display forms of values of that flag; the prerequisite holds when it serves one of them. */
            values: string[];
        };
        /** @description The rollout of the newest published target while one is active or paused; null otherwise. */
        ConfigurationRollout: {
            /** @enum {string} */
            mode: "manual" | "automatic";
            percentage: number;
            /** @enum {string} */
            status: "active" | "paused";
        } | null;
        PromoteRequest: {
            /** @description Environment key to copy from. */
            from: string;
            /** @description Environment key to copy to. */
            to: string;
            /** @description Flag keys to promote; absent means every flag with a published target in `from`. */
            flags?: string[];
            /** @description Publish the new targets (default false, leaving them drafts). */
            publish?: boolean;
            /** @description Publish comment (needed when `to` requires one and `publish` is true). */
            comment?: string | null;
            /** @description Typed confirmation of a console session (the `to` environment's key), where `to` requires it. */
            confirmation?: string;
        };
        PromotedTarget: {
            flag: string;
            target_ulid: string;
            /** @enum {string} */
            status: "draft" | "published";
        };
        PromoteResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["PromoteResult"];
        };
        /** @description What a promote changed (the targets it created or published) and which flags already served the same configuration. */
        PromoteResult: {
            promoted: components["schemas"]["PromotedTarget"][];
            /** @description Flags already serving the same configuration in `to`. */
            unchanged: string[];
        };
        ServeRequest: {
            /** @description The value to serve, by display form (`true`, `42`, `{"a":1}`) or ulid (`val_...`). */
            value: string;
            comment?: string | null;
            /** @description Serve the value to everyone, without the served target's rules (default false). */
            drop_rules?: boolean;
            /** @description Typed confirmation of a console session (the environment's key) where the environment requires it. */
            confirmation?: string;
        };
        SwitchRequest: {
            /** @description `false` serves the off value to everyone; `true` restores the newest earlier publish that was on. */
            on: boolean;
            comment?: string | null;
            /** @description Typed confirmation of a console session (the environment's key) where the environment requires it. */
            confirmation?: string;
        };
        RestoreRequest: {
            comment?: string | null;
            /** @description Typed confirmation of a console session (the environment's key) where the environment requires it. */
            confirmation?: string;
        };
        FlagServingStateResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["FlagServingState"];
        };
        /** @description One change a configuration file would make. */
        ConfigurationChange: {
            /**
             * @description `publish`: a new target would be published with the `after` serving configuration.
             * @enum {string}
             */
            action: "create" | "update" | "delete" | "publish";
            /** @enum {string} */
            kind: "project" | "environment" | "segment" | "flag" | "flag_value" | "serving";
            /** @description The key of what changes (for a flag value, the flag's key; for serving, the flag's key). */
            key: string;
            /** @description For flag values, the value's display form. */
            value?: string;
            /** @description The environment key, for serving changes. */
            environment: string | null;
            /** @description For updates, the fields that differ. */
            fields: string[];
            /** @description The current state (null for creations); any JSON value. */
            before: unknown;
            /** @description The state after applying (null for deletions); any JSON value. */
            after: unknown;
        };
        ConfigurationPlan: {
            changes: components["schemas"]["ConfigurationChange"][];
            /**
             * @description What apply would refuse (`planProjectConfiguration`); empty when it would apply, and
             *     always empty in apply's answer.
             */
            refusals: components["schemas"]["ConfigurationRefusal"][];
            summary: components["schemas"]["ConfigurationPlanSummary"];
        };
        ConfigurationRefusal: {
            /**
             * @description The code apply's 422 would carry.
             * @enum {string}
             */
            code: "comment_required" | "confirmation_required";
            /** @description The environment whose stored setting refuses the change. */
            environment: string;
            /** @description The flag whose publish is refused; null for a refusal of the whole environment. */
            flag: string | null;
            message: string;
            /** @description How to give what is missing, on the command line and in the API. */
            remedy: string;
        };
        /** @description How many changes of each kind the plan holds. */
        ConfigurationPlanSummary: {
            create: number;
            update: number;
            delete: number;
            publish: number;
        };
        ConfigurationPlanResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["ConfigurationPlan"];
        };
        /**
         * @description `sub_selector` is required for `attribute` (the attribute name), optional for `context`
         *     (a context type), absent or null for `segment`. `values` needs at least one item except
         *     for `isnull`/`notnull`, where it must be absent (present, even empty, is a 422);
         *     `segment` values are segment keys of the project; `gt`/`gte`/`lt`/`lte` values are numbers;
         *     `semver_*` values are versions, `before`/`after` values date-times with an offset and
         *     `matches` values regular expressions of the syntax described under `Comparer` (a value
         *     that does not parse is a 422 naming it, e.g. `criteria.0.values.1`).
         *     Comparers other than `equal`, `notequal`, `in`, `notin` need selector `attribute`.
         */
        CriterionWrite: {
            selector: components["schemas"]["Selector"];
            comparer: components["schemas"]["Comparer"];
            sub_selector?: string | null;
            values?: string[];
        };
        Criterion: {
            /**
             * @description `crt_` followed by a ULID.
             * @example crt_01J8Z3K7Q9V2M8N4P6R5S1T0WE
             */
            ulid: string;
            selector: components["schemas"]["Selector"];
            sub_selector: string | null;
            comparer: components["schemas"]["Comparer"];
            /** @description Order within the rule, from 0. */
            position: number;
            values: components["schemas"]["CriterionValues"];
        };
        /** @description The criterion values, each a string. */
        CriterionValues: {
            data: components["schemas"]["CriterionValue"][];
        };
        /** @description One criterion value. */
        CriterionValue: {
            value: string;
        };
        Rule: {
            /**
             * @description `rul_` followed by a ULID.
             * @example rul_01J8Z3K7Q9V2M8N4P6R5S1T0WC
             */
            ulid: string;
            target_ulid: string;
            /** @description Value served when the rule matches (with a split, only to contexts without its bucketing value). */
            value_ulid: string;
            split?: components["schemas"]["Split"];
            description: string;
            /** @description Evaluation order within the target, from 0, lowest first. */
            position: number;
            criteria: components["schemas"]["RuleCriteria"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description The criteria of a rule (all must match), in position order. */
        RuleCriteria: {
            data: components["schemas"]["Criterion"][];
        };
        /**
         * @description A weighted split: the rule (or the target's base) serves one of several values of the
         *     flag by weight instead of its one `value_ulid`. Weights are in thousandths of a percent
         *     and sum to 100000 (100 %). Each context is bucketed by the first value of `attribute`
         *     (null: its identifier), salted with the flag key, so it keeps its value on the server,
         *     in the SDK, over OFREP and across restarts; a context never moves between two values
         *     whose weights both stay the same, and raising one weight while the others keep their
         *     proportions moves only contexts to that value (the method is in the public document,
         *     "Evaluation order"). A context without a bucketing value gets `value_ulid`. Null
         *     (always present in responses): no split.
         */
        Split: {
            attribute: string | null;
            shares: components["schemas"]["SplitShare"][];
        } | null;
        /** @description One value of a split and its weight. */
        SplitShare: {
            value_ulid: string;
            /** @description Thousandths of a percent. */
            weight: number;
        };
        /**
         * @description A weighted split (see `Split`). On a rule (a full replacement) absent or null means no
         *     split; on `updateTarget` absent keeps the draft's split and null removes it. Refused
         *     with 422 naming the field: weights that do not sum to 100000 (`split.shares`), a value
         *     that is not one of this flag's or is listed twice (`split.shares.N.value_ulid`).
         *     Every combination with rules, segments and rollouts is supported: a rollout chooses the
         *     target first, then that target's splits divide the contexts it serves.
         */
        SplitWrite: {
            /** @description Context attribute to bucket by; absent or null for the context identifier. */
            attribute?: string | null;
            shares: components["schemas"]["SplitShareWrite"][];
        } | null;
        SplitShareWrite: {
            value_ulid: string;
            /** @description Thousandths of a percent (25.5 % is 25500). */
            weight: number;
        };
        RuleWrite: {
            /** @description Ulid of a value of this flag. */
            value_ulid: string;
            split?: components["schemas"]["SplitWrite"];
            description: string;
            /** @description Criteria that must all match (AND). */
            criteria: components["schemas"]["CriterionWrite"][];
        };
        RulesOrder: {
            rules: components["schemas"]["RuleOrderItem"][];
        };
        /** @description The new sort key of one rule. */
        RuleOrderItem: {
            ulid: string;
            /** @description Sort key; lowest first. */
            order: number;
        };
        RuleResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Rule"];
        };
        RuleListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Rule"][];
        };
        PrerequisitesWrite: {
            /** @description The whole list, in the order the prerequisites are checked; empty removes them. */
            prerequisites: components["schemas"]["PrerequisiteWrite"][];
        };
        PrerequisiteWrite: {
            /** @description Key of another flag of the project. */
            flag_key: string;
            /** @description Ulids of values of that flag; the prerequisite holds when it serves one of them. */
            value_ulids: string[];
        };
        Prerequisite: {
            flag_key: string;
            flag_ulid: string;
            value_ulids: string[];
        };
        PrerequisiteListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Prerequisite"][];
        };
        /** @description A criterion of a segment rule; like `CriterionWrite` but only selectors `attribute` and `context`. */
        SegmentCriterionWrite: components["schemas"]["CriterionWrite"] & {
            /** @enum {string} */
            selector?: "attribute" | "context";
        };
        SegmentRuleWrite: {
            /** @description Criteria that must all match (AND). */
            criteria: components["schemas"]["SegmentCriterionWrite"][];
        };
        SegmentCriterion: {
            /** @enum {string} */
            selector: "attribute" | "context";
            sub_selector: string | null;
            comparer: components["schemas"]["Comparer"];
            values: string[];
        };
        SegmentRule: {
            criteria: components["schemas"]["SegmentCriterion"][];
        };
        Segment: {
            /**
             * @description `seg_` followed by a ULID.
             * @example seg_01J8Z3K7Q9V2M8N4P6R5S1T0WF
             */
            ulid: string;
            /** @example beta-testers */
            key: string;
            name: string;
            description: string | null;
            /** @description Context identifiers that are always members. */
            included: string[];
            /** @description Context identifiers that are never members (unless included). */
            excluded: string[];
            /** @description A context is a member when all criteria of any one rule match. */
            rules: components["schemas"]["SegmentRule"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SegmentCreate: {
            /** @description Unique within the project; cannot change. */
            key: string;
            name: string;
            /** @description Defaults to null when absent. */
            description?: string | null;
            /** @description Defaults to an empty list when absent. */
            included?: string[];
            /** @description Defaults to an empty list when absent. */
            excluded?: string[];
            /** @description Defaults to an empty list when absent. */
            rules?: components["schemas"]["SegmentRuleWrite"][];
        };
        /** @description Full replacement; omitted fields become null or empty. `key` cannot change. */
        SegmentUpdate: {
            name: string;
            /** @description Defaults to null when absent. */
            description?: string | null;
            /** @description Defaults to an empty list when absent. */
            included?: string[];
            /** @description Defaults to an empty list when absent. */
            excluded?: string[];
            /** @description Defaults to an empty list when absent. */
            rules?: components["schemas"]["SegmentRuleWrite"][];
        };
        SegmentResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Segment"];
        };
        SegmentListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["Segment"][];
            meta: components["schemas"]["ListMeta"];
        };
        FlagInsights: {
            flag_key: string;
            environment_key: string;
            /**
             * Format: date-time
             * @description Last time the flag was part of a payload fetched by an SDK.
             */
            last_retrieved_at: string | null;
            /**
             * Format: date-time
             * @description Last reported use of the flag.
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description Last server-side evaluation through the public API.
             */
            last_evaluated_at: string | null;
            /**
             * Format: date-time
             * @description Last change of the flag, its values or its targets in this environment.
             */
            last_updated_at: string | null;
            /** Format: int64 */
            retrieved_count: number;
            /** Format: int64 */
            used_count: number;
            /** Format: int64 */
            evaluated_count: number;
        };
        FlagInsightsResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["FlagInsights"];
        };
        /** @description The distinct contexts that received one variant of the flag's splits on one UTC day (approximate). */
        SplitExposure: {
            /**
             * Format: date
             * @example 2026-11-26
             */
            day: string;
            /** @description The served value's display form. */
            variant: string;
            /** Format: int64 */
            contexts: number;
        };
        /** @description Evaluations of the flag in one UTC hour that served one value. */
        FlagEvaluationHour: {
            /**
             * Format: date-time
             * @description Start of the hour (UTC).
             * @example 2026-11-26T06:00:00.000Z
             */
            hour: string;
            /** @description The served value's display form (strings as they are, other values as JSON). */
            value: string;
            /** Format: int64 */
            count: number;
        };
        FlagEnvironmentOverviewResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["FlagEnvironmentOverview"];
        };
        /** @description What the console's flag page shows of one environment (getFlagEnvironmentOverview). */
        FlagEnvironmentOverview: {
            flag_key: string;
            environment_key: string;
            serving: components["schemas"]["FlagServingState"];
            served: components["schemas"]["EvaluationResult"];
            /** @description Every target of the flag in the environment, newest first (as `listTargets`). */
            targets: components["schemas"]["Target"][];
            /**
             * @description The rules and prerequisites of the targets the page shows: the publish serving now,
             *     the publish before it while the rollout of the one serving now is in progress
             *     (`active` or `paused`), and the draft; in that order, each present only when there
             *     is one. Empty when nothing is published and there is no draft.
             */
            target_rules: components["schemas"]["TargetRules"][];
            insights: components["schemas"]["FlagInsights"];
            evaluations: components["schemas"]["FlagEvaluationHours"];
            /** @description As `listSplitExposures` answers for `days`. */
            exposures: components["schemas"]["SplitExposure"][];
            context_attributes: components["schemas"]["ContextAttributes"];
        };
        /** @description A target's rules in evaluation order (as `listRules`) and its prerequisites (as `listTargetPrerequisites`). */
        TargetRules: {
            target_ulid: string;
            rules: components["schemas"]["Rule"][];
            prerequisites: components["schemas"]["Prerequisite"][];
        };
        FlagEvaluationHoursResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["FlagEvaluationHours"];
        };
        FlagEvaluationHours: {
            /** @description The number of hours listed (the `hours` asked for). */
            hours: number;
            buckets: components["schemas"]["FlagEvaluationHour"][];
            /**
             * Format: int64
             * @description Evaluations in the current hour and the 23 before, all values.
             */
            total_24h: number;
        };
        SplitExposureListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["SplitExposure"][];
        };
        StaleFlag: {
            key: string;
            name: string;
            /**
             * Format: date-time
             * @description Null when the flag was never used in this environment.
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description Last change of the flag, its values or its targets in this environment (the flag's creation at the latest).
             */
            last_updated_at: string;
            /** Format: date-time */
            created_at: string;
        };
        StaleFlagListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["StaleFlag"][];
        };
        /** @description An existing flag requested without a declared default value. */
        MissingDefaultReport: {
            flag_key: string;
            /** Format: int64 */
            count: number;
            /** Format: date-time */
            last_seen_at: string;
        };
        /** @description A declared default value for a flag key that does not exist in the project. */
        UnknownFlagReport: {
            flag_key: string;
            declared_type: components["schemas"]["FlagType"];
            /** Format: int64 */
            count: number;
            /** Format: date-time */
            last_seen_at: string;
        };
        DefaultValueReports: {
            missing_defaults: components["schemas"]["MissingDefaultReport"][];
            unknown_flags: components["schemas"]["UnknownFlagReport"][];
        };
        DefaultValueReportsResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["DefaultValueReports"];
        };
        ContextAttributes: {
            /** @description Observed context types, most frequent first. */
            context_types: components["schemas"]["ObservedContextType"][];
            /** @description Observed attribute names, most frequent first, each with its 100 most frequent values. */
            attributes: components["schemas"]["ObservedAttribute"][];
        };
        /** @description An attribute name observed in the environment, with how often it was seen and its most frequent values. */
        ObservedAttribute: {
            key: string;
            /** Format: int64 */
            count: number;
            values: components["schemas"]["ObservedAttributeValue"][];
        };
        /** @description A value of an observed attribute, with how often it was seen. */
        ObservedAttributeValue: {
            value: string;
            /** Format: int64 */
            count: number;
        };
        /** @description A context type observed in the environment, with how often it was seen. */
        ObservedContextType: {
            type: string;
            /** Format: int64 */
            count: number;
        };
        ContextAttributesResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["ContextAttributes"];
        };
        /**
         * @description What a change changed: the subject as the API showed it before and after (absent for
         *     creations and deletions respectively), for every change of flags, flag values, targets
         *     (rollouts, scheduled publishes and the scheduler's publishes and rollout steps included;
         *     publishes add the `comment`), rules, segments, environments, projects, environment keys,
         *     management tokens, accounts, personal access tokens and webhook subscriptions. A bulk delete
         *     records each deleted flag as `before` of its own `flag.deleted` entry, and the list of
         *     deleted flags as `before` of its `flag.bulk_deleted` entry; a rule reorder the target's rules in order
         *     before and after; a change of a target's prerequisites (`target.updated` by
         *     `replaceTargetPrerequisites`) `{"prerequisites": [...]}` before and after, as that
         *     operation lists them. Secrets, digests and sealed secrets are never recorded (keys and
         *     tokens as their lists show them). Null for reads, refusals and changes that record no
         *     detail. Webhook events carry the same record.
         */
        AuditChanges: {
            /** @description The subject before the change (any JSON value). */
            before?: unknown;
            /** @description The subject after the change (any JSON value). */
            after?: unknown;
            /** @description The publish comment, for publishes. */
            comment?: string | null;
        } | null;
        /**
         * @description What an audited request did. Management operations:
         *     `getManagementApiDocs` api_docs.read; `listProjects` project.listed; `getProject`
         *     project.read; `createProject` project.created; `updateProject` project.updated;
         *     `deleteProject` project.deleted; `listEnvironments` environment.listed; `getEnvironment`
         *     environment.read; `createEnvironment` environment.created; `updateEnvironment`
         *     environment.updated; `deleteEnvironment` environment.deleted; `listEnvironmentKeys`
         *     environment_key.listed; `createEnvironmentKey` environment_key.created;
         *     `revokeEnvironmentKey` environment_key.revoked; `listManagementTokens` token.listed;
         *     `createManagementToken` token.created; `revokeManagementToken` token.revoked;
         *     `listAccounts` account.listed; `createAccount` account.created; `updateAccount`
         *     account.updated; `deleteAccount` account.deleted; `createPersonalAccessToken`
         *     personal_token.created;
         *     `revokePersonalAccessToken` personal_token.revoked; `listFlags` flag.listed; `getFlag`
         *     and `getFlagEnvironmentOverview` flag.read; `createFlag` flag.created; `updateFlag` flag.updated; `deleteFlag`
         *     flag.deleted; `bulkDeleteFlags` flag.bulk_deleted (after a flag.deleted entry for each
         *     deleted flag); `evaluateFlag` and
         *     `evaluateFlagForContext` flag.evaluated;
         *     `getFlagInsights`, `listSplitExposures` and `listFlagEvaluationHours` flag.insights_read; `listStaleFlags` flag.stale_listed;
         *     `listDefaultValueReports` flag.default_value_reports_read; `listContextAttributes`
         *     context_attribute.listed; `listFlagValues` flag_value.listed; `createFlagValue` and
         *     `createFlagValueForFlag` flag_value.created; `updateFlagValue` flag_value.updated;
         *     `deleteFlagValue` flag_value.deleted; `setDefaultFlagValue` and
         *     `setDefaultFlagValueForFlag` flag_value.default_set; `listTargets` target.listed;
         *     `getTarget` target.read; `createTarget` target.cloned (copied a published target) or
         *     target.created (no published target); `updateTarget` target.updated; `deleteTarget`
         *     target.deleted; `publishTarget` target.published or target.scheduled; `createRollout`
         *     target.rollout_initialized; `updateRollout` target.rollout_updated; `deleteRollout`
         *     target.rollout_deleted; `completeRollout` target.rollout_completed; `listRules`
         *     target_rule.listed; `createRule` target_rule.created; `updateRule`
         *     target_rule.updated; `deleteRule` target_rule.deleted; `reorderRules`
         *     target_rule.reordered; `listTargetPrerequisites` target.read; `replaceTargetPrerequisites`
         *     target.updated; `listSegments` segment.listed; `getSegment` segment.read;
         *     `createSegment` segment.created; `updateSegment` segment.updated; `deleteSegment`
         *     segment.deleted; `listAuditLogs` audit_log.listed; `listPublicAuditLogs`
         *     public_audit_log.listed; `exportProjectConfiguration` project.exported;
         *     `planProjectConfiguration` project.planned; `applyProjectConfiguration` project.applied;
         *     `createSession` auth.sign_in (a failed sign-in: result denied_auth); `getSession`
         *     auth.session_read; `deleteSession` auth.sign_out; `changeOwnPassword`
         *     account.password_changed; `setAccountPassword` account.password_set;
         *     `promoteConfiguration` project.promoted; the public `/health`, `/ready` and `/metrics`
         *     health.checked, readiness.checked and metrics.read (never recorded: they are answered before the audit); `serveFlagValue` target.served (beside the
         *     entries of the targets it creates and publishes); `restoreTarget` target.restored and
         *     `switchFlag` target.switched (one entry each, also a webhook event when something
         *     changed; the targets they create and publish have no entries of their own);
         *     `listWebhooks` webhook.listed; `createWebhook` webhook.created; `getWebhook` webhook.read;
         *     `updateWebhook` webhook.updated; `deleteWebhook` webhook.deleted;
         *     `listWebhookDeliveries` webhook.deliveries_listed; `redeliverWebhookDelivery`
         *     webhook.redelivered; `pingWebhook` webhook.pinged; `rotateWebhookSecret` webhook.secret_rotated.
         *     Denied management requests: auth.missing_token, auth.invalid_token (unknown or
         *     revoked), auth.expired_token, scope.denied, grant.denied; auth.plan_restricted is never
         *     produced by Vexil (kept for compatibility).
         *     System actions (actor type `system`): a scheduled publish target.published; an automatic
         *     rollout step target.rollout_updated, reaching 100 % target.rollout_completed.
         *     Public API requests: `GET /v1/flags`, `GET /v1/flags/{flagKey}`, their twins
         *     `POST /v1/flags/evaluate` and `POST /v1/flags/{flagKey}/evaluate`, and both OFREP
         *     evaluations (single and bulk) flag.evaluated (a server-side evaluation is a
         *     "Flag evaluated" event);
         *     `POST /v1/flags/{flagKey}/usage` flag.used; `GET /v1/payload` and `POST /v1/payload`
         *     payload.retrieved;
         *     `GET /v1/stream` payload.streamed; `GET /v1/api-docs` api_docs.read; a missing key
         *     auth.missing_key; an unknown, revoked or wrong-kind key auth.invalid_key.
         *     A request that matches no operation: unknown. flag_value.read is reserved.
         * @enum {string}
         */
        AuditAction: "auth.missing_token" | "auth.invalid_token" | "auth.expired_token" | "auth.plan_restricted" | "auth.missing_key" | "auth.invalid_key" | "scope.denied" | "grant.denied" | "api_docs.read" | "project.listed" | "project.read" | "project.created" | "project.updated" | "project.deleted" | "project.exported" | "project.planned" | "project.applied" | "health.checked" | "readiness.checked" | "metrics.read" | "auth.sign_in" | "auth.session_read" | "auth.sign_out" | "account.password_changed" | "account.password_set" | "project.promoted" | "target.served" | "target.restored" | "target.switched" | "webhook.listed" | "webhook.created" | "webhook.read" | "webhook.updated" | "webhook.deleted" | "webhook.deliveries_listed" | "webhook.redelivered" | "webhook.pinged" | "webhook.secret_rotated" | "environment.listed" | "environment.read" | "environment.created" | "environment.updated" | "environment.deleted" | "environment_key.listed" | "environment_key.created" | "environment_key.revoked" | "token.listed" | "token.created" | "token.revoked" | "account.listed" | "account.created" | "account.updated" | "account.deleted" | "personal_token.created" | "personal_token.revoked" | "flag.listed" | "flag.read" | "flag.created" | "flag.updated" | "flag.deleted" | "flag.evaluated" | "flag.bulk_deleted" | "flag.used" | "flag.insights_read" | "flag.stale_listed" | "flag.default_value_reports_read" | "context_attribute.listed" | "payload.retrieved" | "payload.streamed" | "flag_value.listed" | "flag_value.read" | "flag_value.created" | "flag_value.updated" | "flag_value.deleted" | "flag_value.default_set" | "target.listed" | "target.read" | "target.created" | "target.updated" | "target.rollout_initialized" | "target.rollout_updated" | "target.rollout_deleted" | "target.rollout_completed" | "target.published" | "target.scheduled" | "target.deleted" | "target.cloned" | "target_rule.listed" | "target_rule.created" | "target_rule.updated" | "target_rule.deleted" | "target_rule.reordered" | "segment.listed" | "segment.read" | "segment.created" | "segment.updated" | "segment.deleted" | "audit_log.listed" | "public_audit_log.listed" | "unknown";
        /**
         * @description `success` (2xx), `denied_auth` (401), `denied_scope` (403 missing scope or role),
         *     `denied_plan` (never produced by Vexil), `denied_grant` (403 missing grant, forbidden
         *     role change, refused CSRF check, or a temporary password's console session asking for
         *     anything but a new password), `not_found` (404), `invalid` (400, 413, 415, 422),
         *     `conflict` (409), `rate_limited` (429), `error` (5xx).
         * @enum {string}
         */
        AuditResult: "success" | "denied_auth" | "denied_scope" | "denied_plan" | "denied_grant" | "not_found" | "invalid" | "conflict" | "rate_limited" | "error";
        /**
         * @description Type of the resource an entry is about: the resource itself for reads and changes, its
         *     parent for lists (for example `project` for `flag.listed`, `target` for
         *     `target_rule.listed`).
         * @enum {string}
         */
        AuditSubjectType: "project" | "environment" | "environment_key" | "flag" | "flag_value" | "target" | "target_rule" | "segment" | "management_token" | "account" | "personal_token" | "webhook";
        /** @description An audited management request or system action. */
        AuditEntry: {
            /**
             * @description `aud_` followed by a ULID.
             * @example aud_01J8Z3K7Q9V2M8N4P6R5S1T0WG
             */
            ulid: string;
            actor: components["schemas"]["AuditActor"];
            token: components["schemas"]["AuditToken"];
            /**
             * @description Null for system actions.
             * @example PUT
             */
            http_method: string | null;
            /**
             * @description Request path without the query string; null for system actions.
             * @example /management/v1/projects/shop/flags/new-checkout
             */
            http_path: string | null;
            action: components["schemas"]["AuditAction"];
            /** @enum {string|null} */
            subject_type: "project" | "environment" | "environment_key" | "flag" | "flag_value" | "target" | "target_rule" | "segment" | "management_token" | "account" | "personal_token" | "webhook" | null;
            subject_ulid: string | null;
            /** @description A readable name of the subject at the time (for example the flag key). */
            subject_label: string | null;
            result: components["schemas"]["AuditResult"];
            /** @description HTTP status of the response; null for system actions. */
            status_code: number | null;
            /** Format: date-time */
            created_at: string;
            changes: components["schemas"]["AuditChanges"];
            request: components["schemas"]["AuditRequest"];
        };
        /**
         * @description The request that wrote the entry. One request can write several entries (a promote, an
         *     apply or a serve writes one per change it makes); they share `ulid`, so a reader can show
         *     them as the one change a person made. `action` is the action of the request's operation
         *     (`target.served` for `serveFlagValue`, whose entries are also `target.created`,
         *     `target.published`...; `unknown` when it matched none). Null for system actions and for
         *     entries written before requests were recorded.
         */
        AuditRequest: {
            /**
             * @description `req_` followed by a ULID; the same on every entry of the request.
             * @example req_01J8Z3K7Q9V2M8N4P6R5S1T0WG
             */
            ulid: string;
            action: components["schemas"]["AuditAction"];
        } | null;
        /** @description The token used (`tok_` ulid of a personal access token, or `mgt_` ulid of a management token); null for system actions and unauthenticated requests. */
        AuditToken: {
            ulid: string;
            name: string;
        } | null;
        /**
         * @description Who acted: the account of a personal access token, the management token itself, or
         *     `system`. Null when the request could not be authenticated.
         */
        AuditActor: {
            /** @enum {string} */
            type: "account" | "management_token" | "system";
            /** @description `usr_` or `mgt_` ulid; null for `system`. */
            ulid: string | null;
            name: string | null;
            /** @description Accounts only. */
            email: string | null;
        } | null;
        /** @description An audited public API request. */
        PublicAuditEntry: {
            /** @description `aud_` followed by a ULID. */
            ulid: string;
            /**
             * @description `sdk_key` for a request with a valid environment key, `anonymous` otherwise.
             * @enum {string}
             */
            actor_type: "sdk_key" | "anonymous";
            /** @description The environment key's ulid (`key_...`); null for `anonymous`. */
            actor_ulid: string | null;
            environment: components["schemas"]["AuditEnvironment"];
            action: components["schemas"]["AuditAction"];
            /** @enum {string|null} */
            subject_type: "project" | "environment" | "environment_key" | "flag" | "flag_value" | "target" | "target_rule" | "segment" | "management_token" | "account" | "personal_token" | null;
            subject_ulid: string | null;
            subject_label: string | null;
            result: components["schemas"]["AuditResult"];
            status_code: number;
            /**
             * Format: int64
             * @description The number of requests this entry stands for: 1, or in the `aggregate` mode of `VEXIL_PUBLIC_AUDIT` the number of the minute's requests it groups.
             */
            count: number;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The key's environment; null for `anonymous`. */
        AuditEnvironment: {
            ulid: string;
            key: string;
        } | null;
        AuditEntryListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["AuditEntry"][];
            meta: components["schemas"]["AuditListMeta"];
        };
        PublicAuditEntryListResponse: {
            /** @enum {string} */
            status: "success";
            data: components["schemas"]["PublicAuditEntry"][];
            meta: components["schemas"]["AuditListMeta"];
        };
    };
    responses: {
        /** @description The body is not valid JSON, or a header parameter is invalid (for example an `Idempotency-Key` over 255 characters). */
        BadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "The request body is not valid JSON.",
                 *       "code": "bad_request"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The bearer token is missing, unknown, revoked or expired (or, for the console, the
         *     session has ended or the sign-in failed). `WWW-Authenticate` names the Bearer scheme.
         */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Unauthenticated.",
                 *       "code": "invalid_token"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The token lacks the required scope or role (`ScopeErrorEnvelope` with `required_scope`),
         *     or lacks a grant for the project or environment, or the role may not make this change
         *     (`ErrorEnvelope`).
         */
        Forbidden: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ForbiddenError"];
            };
        };
        /** @description A resource named in the path does not exist (or belongs to another parent). */
        NotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
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
        /** @description A request with the same `Idempotency-Key` is still being processed. */
        Conflict: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "A request with this Idempotency-Key is still being processed.",
                 *       "code": "idempotency_in_flight"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The flag is a prerequisite of other flags (a draft, scheduled or published target of
         *     theirs requires it): the message lists them as `flag/environment`. Remove those
         *     prerequisites first. Code `flag_required`.
         */
        FlagRequired: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Flag \"new-checkout\" is a prerequisite of: banner/production, upsell/staging.",
                 *       "code": "flag_required"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description A request with the same `Idempotency-Key` is still being processed
         *     (`idempotency_in_flight`), or one of the flags is a prerequisite of a flag that is not
         *     deleted with it (`flag_required`; the message lists them as `flag/environment`).
         */
        ConflictOrFlagRequired: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "Flag \"new-checkout\" is a prerequisite of: banner/production.",
                 *       "code": "flag_required"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The request body fails validation (`ValidationError`, errors keyed by field, nested
         *     fields as dotted paths), a state precondition fails (`ErrorEnvelope`, see the operation),
         *     or the `Idempotency-Key` was used with a different body (`ErrorEnvelope`).
         */
        UnprocessableBody: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnprocessableError"];
            };
        };
        /** @description A query parameter is invalid. */
        UnprocessableQuery: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "The per_page parameter must be an integer between 1 and 100.",
                 *       "code": "invalid_query"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description A state precondition fails (see the operation), or the `Idempotency-Key` was used with a different request. */
        UnprocessableState: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "A published or expired target cannot be deleted.",
                 *       "code": "state_conflict"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The request body is larger than 1 MB. */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "The request body is too large.",
                 *       "code": "payload_too_large"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The request body is not sent as `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "error",
                 *       "message": "The request body must be JSON (Content-Type application/json).",
                 *       "code": "unsupported_media_type"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The token's rate limit is exceeded. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
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
    };
    parameters: {
        /**
         * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
         * @example shop
         */
        projectKey: string;
        /**
         * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
         * @example production
         */
        environmentKey: string;
        /**
         * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
         * @example new-checkout
         */
        flagKey: string;
        /**
         * @description Key of a segment of the project. A value that matches no segment (or not the pattern) is a 404.
         * @example beta-testers
         */
        segmentKey: string;
        /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
        valueUlid: string;
        /** @description `serving` adds the flag's state per environment (`environments`), last use and staleness. */
        FlagInclude: "serving";
        /** @description With `include=serving` or `stale`, the days without use after which a flag that is not permanent is stale. */
        StaleDays: number;
        /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
        targetUlid: string;
        /** @description Ulid (`rul_...`) of a rule of the target. Unknown, malformed or belonging to another target is a 404. */
        ruleUlid: string;
        /** @description Ulid (`key_...`) of an environment key of the environment. Unknown, malformed or belonging to another environment is a 404. */
        keyUlid: string;
        /**
         * @description Ulid of a token: a management token (`mgt_...`) under `/tokens`, a personal access token
         *     (`tok_...`) of the account under `/accounts/{accountUlid}/tokens`. Unknown or malformed is
         *     a 404.
         */
        tokenUlid: string;
        /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
        accountUlid: string;
        /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
        webhookUlid: string;
        /** @description Page size. Outside 1..100 is a 422. */
        PerPage: number;
        /**
         * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
         *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
         *     cursor is a 422.
         */
        Cursor: string;
        /**
         * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
         *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
         *     body is a 422; a request with the same key still running is a 409. Longer than 255
         *     characters is a 400. An empty value is the same as no header.
         * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
         */
        IdempotencyKey: string;
        /** @description Order by creation time. */
        AuditSort: "created_at_desc" | "created_at_asc";
        /** @description Only entries created at or after this date-time. */
        AuditFrom: string;
        /** @description Only entries created at or before this date-time. */
        AuditTo: string;
        /** @description Only entries with this action. */
        AuditActionFilter: components["schemas"]["AuditAction"];
        /** @description Only entries with this result. */
        AuditResultFilter: components["schemas"]["AuditResult"];
        /** @description Only entries whose subject is of this type. */
        AuditSubjectTypeFilter: components["schemas"]["AuditSubjectType"];
        /** @description Only entries about this subject, matched exactly (white space is refused with 422). */
        AuditSubjectUlidFilter: string;
        /** @description Only requests made with this management token (`mgt_...`). */
        AuditManagementTokenUlidFilter: string;
        /**
         * @description Only entries about this project (its key): its flags, values, targets, rules, segments,
         *     environments, keys and webhooks. A key that names no project the caller can see matches
         *     nothing.
         */
        AuditProjectFilter: string;
        /**
         * @description Only entries of this actor: an account (`usr_...`) or management token (`mgt_...`) on
         *     `/audit-logs`, an environment key (`key_...`) on `/api-public-audit-logs`.
         */
        AuditActorUlidFilter: string;
        /**
         * @description `changes`: entries of requests that change something (every method but `GET`, except
         *     evaluations and plans) and of system actions; `reads`: the others. Absent: both.
         */
        AuditKindFilter: "changes" | "reads";
        /** @description Only entries about this environment (`env_...`), matched exactly (white space is refused with 422). */
        AuditEnvironmentUlidFilter: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description `no-store`: the answer carries a secret or a console session, so no cache may keep it (also on the operation's refusals).
         * @example no-store
         */
        "Cache-Control-No-Store": "no-store";
        /**
         * @description The challenge of a `401` (RFC 9110), always `Bearer realm="vexil"`.
         * @example Bearer realm="vexil"
         */
        "WWW-Authenticate": "Bearer realm=\"vexil\"";
        /** @description Requests allowed per one-minute window for this token (for `GET /api-docs`, per client IP). Absent for `unlimited` tokens and before authentication. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "X-RateLimit-Remaining": number;
        /** @description Unix time (seconds) at which the current window ends. */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description `true` when this response is a replay of a stored response for the same `Idempotency-Key`. */
        "X-Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getManagementApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.0.3 document of the management API. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listProjects: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of projects. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectCreate"];
            };
        };
        responses: {
            /** @description The created project. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectUpdate"];
            };
        };
        responses: {
            /** @description The updated project. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteProject: {
        parameters: {
            query?: {
                /** @description Typed confirmation of a console session (the project's key) where the project holds an environment that requires it. */
                confirmation?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listEnvironments: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of environments. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnvironmentCreate"];
            };
        };
        responses: {
            /** @description The created environment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The environment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnvironmentUpdate"];
            };
        };
        responses: {
            /** @description The updated environment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteEnvironment: {
        parameters: {
            query?: {
                /** @description Typed confirmation of a console session (the environment's key) where the environment requires it. */
                confirmation?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The environment was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listEnvironmentKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The environment's keys. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentKeyListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createEnvironmentKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnvironmentKeyCreate"];
            };
        };
        responses: {
            /** @description The created key, with its secret (shown only in this response). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentKeyCreatedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeEnvironmentKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`key_...`) of an environment key of the environment. Unknown, malformed or belonging to another environment is a 404. */
                keyUlid: components["parameters"]["keyUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is revoked. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listStaleFlags: {
        parameters: {
            query?: {
                /** @description Number of days without use after which a flag is stale. */
                days?: number;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stale flags. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StaleFlagListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listDefaultValueReports: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reports. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DefaultValueReportsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listContextAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The observed context types and attributes. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextAttributesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listManagementTokens: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of management tokens. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManagementTokenListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createManagementToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ManagementTokenCreate"];
            };
        };
        responses: {
            /** @description The created token, with its secret (shown only in this response). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManagementTokenCreatedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeManagementToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Ulid of a token: a management token (`mgt_...`) under `/tokens`, a personal access token
                 *     (`tok_...`) of the account under `/accounts/{accountUlid}/tokens`. Unknown or malformed is
                 *     a 404.
                 */
                tokenUlid: components["parameters"]["tokenUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token is revoked. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountCreate"];
            };
        };
        responses: {
            /** @description The created account. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountUpdate"];
            };
        };
        responses: {
            /** @description The updated account. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableState"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createPersonalAccessToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PersonalAccessTokenCreate"];
            };
        };
        responses: {
            /** @description The created token, with its secret (shown only in this response). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalAccessTokenCreatedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokePersonalAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Ulid (`usr_...`) of an account. Unknown or malformed is a 404. */
                accountUlid: components["parameters"]["accountUlid"];
                /**
                 * @description Ulid of a token: a management token (`mgt_...`) under `/tokens`, a personal access token
                 *     (`tok_...`) of the account under `/accounts/{accountUlid}/tokens`. Unknown or malformed is
                 *     a 404.
                 */
                tokenUlid: components["parameters"]["tokenUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token is revoked. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listFlags: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
                /** @description `serving` adds the flag's state per environment (`environments`), last use and staleness. */
                include?: components["parameters"]["FlagInclude"];
                /** @description With `include=serving` or `stale`, the days without use after which a flag that is not permanent is stale. */
                stale_days?: components["parameters"]["StaleDays"];
                /** @description Only flags of this type. */
                type?: components["schemas"]["FlagType"];
                /** @description Only flags carrying this tag (exact). Empty means no filter. */
                tag?: string;
                /**
                 * @description Case-insensitive partial match on the flag key or name (Unicode lower-casing; a flag
                 *     matches when either contains the text). `%`, `_`, `\` and every other character are
                 *     matched literally: there are no wildcards. Empty means no filter. The NUL character
                 *     (`%00`) is refused with 422 (code `invalid_query`), on every database alike.
                 */
                search?: string;
                /** @description Only flags that are on in this environment (an environment key of the project). */
                on?: string;
                /** @description Only flags that are off in this environment (an environment key of the project). */
                off?: string;
                /**
                 * @description `true`: only stale flags; `false`: only flags that are not stale (staleness as in
                 *     `include=serving`, after `stale_days`).
                 */
                stale?: boolean;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of flags. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createFlag: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlagCreate"];
            };
        };
        responses: {
            /** @description The created flag. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    bulkDeleteFlags: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkDeleteRequest"];
            };
        };
        responses: {
            /** @description Which keys were deleted and which were not found. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkDeleteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ConflictOrFlagRequired"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getFlag: {
        parameters: {
            query?: {
                /** @description `serving` adds the flag's state per environment (`environments`), last use and staleness. */
                include?: components["parameters"]["FlagInclude"];
                /** @description With `include=serving` or `stale`, the days without use after which a flag that is not permanent is stale. */
                stale_days?: components["parameters"]["StaleDays"];
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flag. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateFlag: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlagUpdate"];
            };
        };
        responses: {
            /** @description The updated flag. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flag was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["FlagRequired"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    evaluateFlag: {
        parameters: {
            query?: {
                /**
                 * @description The context as a JSON string, the same document as the public API's `X-VEXIL-CONTEXT`
                 *     header: `{"type": "user", "identifier": "u-42", "name": "Ada", "attributes":
                 *     [{"key": "country", "values": [{"value": "FR"}]}]}`. `type` (1 to 200 characters) and
                 *     `identifier` (1 to 1000 characters) are required. Without it (or empty) the flag is
                 *     evaluated for no context (no rule that needs context data matches; never inside a
                 *     partial rollout). Text that is not JSON or does not match `EvaluationContext` gets
                 *     `422`.
                 */
                context?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evaluation result. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationResultResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
            /**
             * @description The request line and headers are larger than the server accepts (64 KB in total by default, `VEXIL_MAX_HEADER_BYTES`, so
             *     a very large `context`). Sent by the HTTP layer before the request is read: no body.
             */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evaluateFlagForContext: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ManagementEvaluationRequest"];
            };
        };
        responses: {
            /** @description The evaluation result. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationResultResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getFlagInsights: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flag's insights. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagInsightsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listSplitExposures: {
        parameters: {
            query?: {
                /** @description Number of UTC days to list, today included. */
                days?: number;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The exposure counts. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SplitExposureListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listFlagEvaluationHours: {
        parameters: {
            query?: {
                /** @description Number of UTC hours to list, the current hour included (168 is 7 days). */
                hours?: number;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The hourly evaluation counts. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagEvaluationHoursResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getFlagEnvironmentOverview: {
        parameters: {
            query?: {
                /** @description Number of UTC hours of evaluations, the current hour included (168 is 7 days). */
                hours?: number;
                /** @description Number of UTC days of split exposures, today included. */
                days?: number;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flag in the environment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagEnvironmentOverviewResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listFlagValues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flag's values. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagValueListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createFlagValueForFlag: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlagValueWrite"];
            };
        };
        responses: {
            /** @description The created value. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagValueResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createFlagValue: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlagValueWrite"];
            };
        };
        responses: {
            /** @description The created value. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagValueResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateFlagValue: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlagValueWrite"];
            };
        };
        responses: {
            /** @description The updated value. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagValueResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteFlagValue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The value was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableState"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    setDefaultFlagValueForFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The value, now with `default` true. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagValueResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    setDefaultFlagValue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`val_...`) of a value of the flag. Unknown, malformed or belonging to another flag is a 404. */
                valueUlid: components["parameters"]["valueUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The value, now with `default` true. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagValueResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listTargets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The targets, newest first. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createTarget: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new draft target. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableState"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateTarget: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TargetUpdate"];
            };
        };
        responses: {
            /** @description The updated target. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableState"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    publishTarget: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TargetPublish"];
            };
        };
        responses: {
            /** @description The published or scheduled target. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateRollout: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RolloutUpdate"];
            };
        };
        responses: {
            /** @description The target with its updated rollout. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createRollout: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RolloutCreate"];
            };
        };
        responses: {
            /** @description The rollout fields of the target. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolloutSubsetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteRollout: {
        parameters: {
            query?: {
                /** @description Typed confirmation of a console session (the environment's key) where the environment requires it. */
                confirmation?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target with its rollout fields null. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    completeRollout: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RolloutComplete"];
            };
        };
        responses: {
            /** @description The completed rollout fields of the target. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolloutCompleteSubsetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules in evaluation order. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createRule: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleWrite"];
            };
        };
        responses: {
            /** @description The created rule. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listTargetPrerequisites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The prerequisites in the order they are checked. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrerequisiteListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    replaceTargetPrerequisites: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PrerequisitesWrite"];
            };
        };
        responses: {
            /** @description The prerequisites as stored. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrerequisiteListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateRule: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
                /** @description Ulid (`rul_...`) of a rule of the target. Unknown, malformed or belonging to another target is a 404. */
                ruleUlid: components["parameters"]["ruleUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleWrite"];
            };
        };
        responses: {
            /** @description The replaced rule. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
                /** @description Ulid (`rul_...`) of a rule of the target. Unknown, malformed or belonging to another target is a 404. */
                ruleUlid: components["parameters"]["ruleUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableState"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    reorderRules: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RulesOrder"];
            };
        };
        responses: {
            /** @description All rules of the target in the new evaluation order. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listSegments: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of segments. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createSegment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SegmentCreate"];
            };
        };
        responses: {
            /** @description The created segment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a segment of the project. A value that matches no segment (or not the pattern) is a 404.
                 * @example beta-testers
                 */
                segmentKey: components["parameters"]["segmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The segment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateSegment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe. Scoped to the token, method and path; honoured for 24 hours. The same
                 *     key and body replays the stored response with `X-Idempotent-Replayed: true`; a different
                 *     body is a 422; a request with the same key still running is a 409. Longer than 255
                 *     characters is a 400. An empty value is the same as no header.
                 * @example 5f0c6e2a-8d8e-4d55-9a39-0f1f0b7c2f11
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a segment of the project. A value that matches no segment (or not the pattern) is a 404.
                 * @example beta-testers
                 */
                segmentKey: components["parameters"]["segmentKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SegmentUpdate"];
            };
        };
        responses: {
            /** @description The replaced segment. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Idempotent-Replayed": components["headers"]["X-Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a segment of the project. A value that matches no segment (or not the pattern) is a 404.
                 * @example beta-testers
                 */
                segmentKey: components["parameters"]["segmentKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The segment was deleted. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableState"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSessionResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    /** @description The session cookie. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSessionResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    changeOwnPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Changed; every session of the account has ended. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    setAccountPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account (`usr_...`). Unknown is a 404. */
                accountUlid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordSet"];
            };
        };
        responses: {
            /** @description Set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhook subscriptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookWrite"];
            };
        };
        responses: {
            /** @description The subscription, with its secret (shown only this once). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreatedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookWrite"];
            };
        };
        responses: {
            /** @description The changed subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuccessStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
                /** @description The delivery's ulid (`whe_...`). Unknown is a 404. */
                deliveryUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queued delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /** @description The subscription's ulid (`whk_...`). Unknown, or of another project, is a 404. */
                webhookUlid: components["parameters"]["webhookUlid"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookSecretRotationRequest"];
            };
        };
        responses: {
            /** @description The new secret, shown only this once, and the end of the previous one's grace period. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control-No-Store"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretRotationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    exportProjectConfiguration: {
        parameters: {
            query?: {
                /** @description Comma-separated environment keys to export; absent exports every environment. An unknown key is a 404. */
                environments?: string;
                /** @description `yaml` or `json`; overrides the `Accept` header. */
                format?: "yaml" | "json";
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's configuration. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectConfiguration"];
                    "application/yaml": components["schemas"]["ProjectConfiguration"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    planProjectConfiguration: {
        parameters: {
            query?: {
                /** @description List what the file leaves out as deletions. */
                prune?: boolean;
                /** @description The publish comment apply would be given (`applyProjectConfiguration`'s `comment`). */
                comment?: string;
                /** @description The typed confirmation apply would be given (`applyProjectConfiguration`'s `confirmation`). */
                confirmation?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectConfiguration"];
            };
        };
        responses: {
            /** @description The changes applying the file would make. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigurationPlanResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    applyProjectConfiguration: {
        parameters: {
            query?: {
                /** @description Delete what the file leaves out (flags, values, segments, environments). */
                prune?: boolean;
                /** @description Publish comment for serving changes whose file entry has none. */
                comment?: string;
                /**
                 * @description Typed confirmation of a console session: the keys, comma-separated, of the
                 *     `confirmation_required` environments the apply may publish in, each typed by the
                 *     person. Ignored for Bearer tokens, which are refused there whatever they send.
                 * @example production
                 */
                confirmation?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectConfiguration"];
            };
        };
        responses: {
            /** @description The changes made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigurationPlanResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    promoteConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PromoteRequest"];
            };
        };
        responses: {
            /** @description The targets created in `to`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromoteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    serveFlagValue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServeRequest"];
            };
        };
        responses: {
            /** @description The published target. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    switchFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SwitchRequest"];
            };
        };
        responses: {
            /** @description The environment's state after the switch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlagServingStateResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    restoreTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Key of the project. A value that matches no project (or not the pattern) is a 404.
                 * @example shop
                 */
                projectKey: components["parameters"]["projectKey"];
                /**
                 * @description Key of a flag of the project. A value that matches no flag (or not the pattern) is a 404.
                 * @example new-checkout
                 */
                flagKey: components["parameters"]["flagKey"];
                /**
                 * @description Key of an environment of the project. A value that matches no environment (or not the pattern) is a 404.
                 * @example production
                 */
                environmentKey: components["parameters"]["environmentKey"];
                /** @description Ulid (`tgt_...`) of a target of the flag in the environment. Unknown, malformed or belonging to another flag or environment is a 404. */
                targetUlid: components["parameters"]["targetUlid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreRequest"];
            };
        };
        responses: {
            /** @description The new published target. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["UnprocessableBody"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listAuditLogs: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
                /** @description Order by creation time. */
                sort?: components["parameters"]["AuditSort"];
                /** @description Only entries created at or after this date-time. */
                from?: components["parameters"]["AuditFrom"];
                /** @description Only entries created at or before this date-time. */
                to?: components["parameters"]["AuditTo"];
                /** @description Only entries with this action. */
                action?: components["parameters"]["AuditActionFilter"];
                /** @description Only entries with this result. */
                result?: components["parameters"]["AuditResultFilter"];
                /** @description Only entries whose subject is of this type. */
                subject_type?: components["parameters"]["AuditSubjectTypeFilter"];
                /** @description Only entries about this subject, matched exactly (white space is refused with 422). */
                subject_ulid?: components["parameters"]["AuditSubjectUlidFilter"];
                /** @description Only requests made with this management token (`mgt_...`). */
                management_token_ulid?: components["parameters"]["AuditManagementTokenUlidFilter"];
                /**
                 * @description Only entries of this actor: an account (`usr_...`) or management token (`mgt_...`) on
                 *     `/audit-logs`, an environment key (`key_...`) on `/api-public-audit-logs`.
                 */
                actor_ulid?: components["parameters"]["AuditActorUlidFilter"];
                /**
                 * @description Only entries about this project (its key): its flags, values, targets, rules, segments,
                 *     environments, keys and webhooks. A key that names no project the caller can see matches
                 *     nothing.
                 */
                project?: components["parameters"]["AuditProjectFilter"];
                /**
                 * @description `changes`: entries of requests that change something (every method but `GET`, except
                 *     evaluations and plans) and of system actions; `reads`: the others. Absent: both.
                 */
                kind?: components["parameters"]["AuditKindFilter"];
                /** @description Only entries about this environment (`env_...`), matched exactly (white space is refused with 422). */
                environment_ulid?: components["parameters"]["AuditEnvironmentUlidFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit entries. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listPublicAuditLogs: {
        parameters: {
            query?: {
                /** @description Page size. Outside 1..100 is a 422. */
                per_page?: components["parameters"]["PerPage"];
                /**
                 * @description Opaque cursor from `meta.next_cursor` (or `meta.prev_cursor`) of a previous response of
                 *     the same list with the same filters. Omit (or send empty) for the first page. An invalid
                 *     cursor is a 422.
                 */
                cursor?: components["parameters"]["Cursor"];
                /** @description Order by creation time. */
                sort?: components["parameters"]["AuditSort"];
                /** @description Only entries created at or after this date-time. */
                from?: components["parameters"]["AuditFrom"];
                /** @description Only entries created at or before this date-time. */
                to?: components["parameters"]["AuditTo"];
                /** @description Only entries with this action. */
                action?: components["parameters"]["AuditActionFilter"];
                /** @description Only entries with this result. */
                result?: components["parameters"]["AuditResultFilter"];
                /** @description Only entries whose subject is of this type. */
                subject_type?: components["parameters"]["AuditSubjectTypeFilter"];
                /** @description Only entries about this subject, matched exactly (white space is refused with 422). */
                subject_ulid?: components["parameters"]["AuditSubjectUlidFilter"];
                /** @description Only requests made with this management token (`mgt_...`). */
                management_token_ulid?: components["parameters"]["AuditManagementTokenUlidFilter"];
                /**
                 * @description Only entries of this actor: an account (`usr_...`) or management token (`mgt_...`) on
                 *     `/audit-logs`, an environment key (`key_...`) on `/api-public-audit-logs`.
                 */
                actor_ulid?: components["parameters"]["AuditActorUlidFilter"];
                /**
                 * @description Only entries about this project (its key): its flags, values, targets, rules, segments,
                 *     environments, keys and webhooks. A key that names no project the caller can see matches
                 *     nothing.
                 */
                project?: components["parameters"]["AuditProjectFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of public API audit entries. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicAuditEntryListResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["UnprocessableQuery"];
            429: components["responses"]["TooManyRequests"];
        };
    };
}
