"""Schemathesis hooks and checks for `make test` (test/schemathesis/run.mjs loads this file via SCHEMATHESIS_HOOKS).

The check `refusal_has_rule_code` makes positive data strict (see its docstring). The hooks below it
concern the stateful phase only. Its scenarios are chains (create a project, then its environments, flags,
keys, ...) that get going only when the first create succeeds.

Hypothesis sends the same inputs again in later scenarios (replaying and shrinking), `Idempotency-Key`
included. The server then answers, as documented, with the stored response of the first request
(`X-Idempotent-Replayed: true`), for a resource a former scenario may since have deleted, and the
`ensure_resource_availability` check reports the following 404 as "created resource not found".
So in the stateful phase every valid `Idempotency-Key` is made unique per request; the replay itself
is covered by test/integration and by the other phases.

Stateful create steps are also pointed at the fixtures test/schemathesis/run.mjs bootstraps (project
`fuzz`, environment `development`, flag `fuzz-flag`) when their parent keys were not supplied by a link.
A root step ("RANDOM -> POST /projects/{projectKey}/flags") otherwise names a made-up project and gets a
404, so most steps of a scenario go to waste and chains like flag -> value -> target -> rule -> publish
rarely get past their first links. Only path parameters Schemathesis generated itself are replaced: values
a link supplies are passed to generation as explicit values, excluded from the generated part, so
`map_path_parameters` sees (and records) only the generated names; `map_case` then replaces those in
positive stateful cases. Random parent keys (the 404 answers) stay fuzzed in the other phases.

Likewise, positive stateful `createRule` bodies have their criteria made consistent with the rules
src/features/rules/criteria.ts enforces beyond the schema (otherwise nearly every rule is a 422 and the
rule -> publish links are never reached); the other phases keep sending inconsistent criteria.
"""

import json
import re
import threading
import uuid

import schemathesis
from schemathesis.generation import GenerationMode
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase

# Codes (ErrorCode in both documents) of refusals that schema-valid input can meet: rules of the
# current state that no schema can state (a key already taken, a cursor never issued, a reused
# Idempotency-Key, a grant naming a project that does not exist, a target that is no longer a draft).
RULE_CODES = frozenset(
    {
        "idempotency_key_reused",
        "idempotency_in_flight",
        "invalid_cursor",
        "state_conflict",
        "value_in_use",
        "confirmation_required",
        "already_exists",
        "reference_not_found",
        "invalid_combination",
        "date_not_in_future",
        "value_type_mismatch",
        "comment_required",
        "url_not_allowed",
        "invalid_credentials",
    }
)
# Statuses a refusal of schema-valid input may have (positive_data_acceptance in schemathesis.toml
# lets them through; this check then looks at the code). 401, 403, 404 and 429 need no code check.
RULE_STATUSES = frozenset({400, 409, 422})


def _error_code(response):
    try:
        body = json.loads(response.content)
    except (ValueError, UnicodeDecodeError):
        return None
    return body.get("code") if isinstance(body, dict) else None


@schemathesis.check
def refusal_has_rule_code(ctx, response, case):
    """Schema-valid input refused with 400, 409 or 422 must name a rule-based `code`.

    `positive_data_acceptance` accepts those statuses (a rule of the current state may refuse valid
    input), which alone would let the server be stricter than its document unnoticed. So every such
    refusal of positive data must carry one of RULE_CODES: never `validation_failed` (the document
    says the input is valid), nor a generic `bad_request` or `invalid_query`. test_hooks.py shows it
    failing and passing under the installed Schemathesis before every fuzzing run.
    """
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code not in RULE_STATUSES:
        return None
    # Request-shape probes of the coverage phase (wrong media type, unexpected method) are not data.
    from schemathesis.specs.openapi.checks import is_unexpected_http_status_case

    if is_unexpected_http_status_case(case):
        return None
    code = _error_code(response)
    if code not in RULE_CODES:
        raise AssertionError(
            f"Schema-valid input refused with {response.status_code} and code {code!r}; a refusal of valid input "
            f"must name a rule ({', '.join(sorted(RULE_CODES))}). Either the document should state the rule, "
            "or the refusal needs a rule-based code."
        )
    return None


# src/features/rules/criteria.ts: rules no schema states (which comparers a selector takes, values
# required or forbidden, numbers for ordering comparers, versions, date-times and patterns for the
# typed ones, an attribute needs a sub_selector).
IDENTITY_COMPARERS = {"equal", "notequal", "in", "notin"}
VALUELESS_COMPARERS = {"isnull", "notnull"}
NUMERIC_COMPARERS = {"gt", "gte", "lt", "lte"}
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")
# Comparers whose values must parse (versions, date-times with an offset, linear-time patterns).
TYPED_VALUES = {
    **{c: "1.2.3" for c in ("semver_eq", "semver_lt", "semver_gt", "semver_lte", "semver_gte")},
    "before": "2026-01-01T00:00:00Z",
    "after": "2026-01-01T00:00:00Z",
    "matches": "^fuzz",
}


def _repair_criterion(criterion):
    if not isinstance(criterion, dict):
        return criterion
    criterion = dict(criterion)
    selector = criterion.get("selector")
    comparer = criterion.get("comparer")
    if selector == "segment":
        # Segment values are segment keys that must exist in the project.
        selector = criterion["selector"] = "context"
        criterion["sub_selector"] = None
    if selector == "attribute":
        sub = criterion.get("sub_selector")
        if not isinstance(sub, str) or not sub:
            criterion["sub_selector"] = "country"
    elif selector == "context":
        if criterion.get("sub_selector") == "":
            criterion["sub_selector"] = None
        if comparer not in IDENTITY_COMPARERS:
            comparer = criterion["comparer"] = "in"
    if comparer in VALUELESS_COMPARERS:
        criterion.pop("values", None)
    else:
        values = criterion.get("values")
        if not isinstance(values, list) or not values:
            values = ["fuzz"]
        if comparer in NUMERIC_COMPARERS:
            values = [v if isinstance(v, str) and NUMBER.fullmatch(v) else "1" for v in values]
        if comparer in TYPED_VALUES:
            values = [TYPED_VALUES[comparer]]
        criterion["values"] = values
    return criterion


def _repair_rule(body):
    """A `createRule` body made consistent with the rules above (positive stateful cases only)."""
    if isinstance(body, dict) and isinstance(body.get("criteria"), list):
        body = {**body, "criteria": [_repair_criterion(c) for c in body["criteria"]]}
    return body


# Parent path parameters of create operations and the fixture each one is pinned to.
FIXTURE_PARENTS = {"projectKey": "fuzz", "environmentKey": "development", "flagKey": "fuzz-flag"}

# Names of the path parameters generated (not supplied by a link) for the case being built in this
# thread. `map_path_parameters` runs during the same draw, just before `map_case`.
_generated = threading.local()


@schemathesis.hook
def map_path_parameters(context, path_parameters):
    _generated.names = (
        context.operation.label if context.operation is not None else None,
        frozenset(path_parameters or ()),
    )
    return path_parameters


def _generated_path_parameters(context):
    recorded = getattr(_generated, "names", None)
    _generated.names = None
    if recorded is None or context.operation is None or recorded[0] != context.operation.label:
        return frozenset()
    return recorded[1]


def _pin_parents(context, case):
    generated = _generated_path_parameters(context)
    meta = case.meta
    if (
        context.operation is None
        or not str(context.operation.definition.raw.get("operationId", "")).startswith("create")
        or meta.generation.mode != GenerationMode.POSITIVE
        or meta.is_negative_at(ParameterLocation.PATH)
        or not case.path_parameters
    ):
        return
    pinned = {
        name: fixture
        for name, fixture in FIXTURE_PARENTS.items()
        if name in generated and name in case.path_parameters
    }
    if pinned:
        case.path_parameters = {**case.path_parameters, **pinned}


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.STATEFUL:
        _generated.names = None
        return case
    _pin_parents(context, case)
    if meta.generation.mode == GenerationMode.POSITIVE and isinstance(case.body, (dict, list)):
        if context.operation is not None and context.operation.definition.raw.get("operationId") == "createRule":
            case.body = _repair_rule(case.body)
    if case.headers:
        for name, value in list(case.headers.items()):
            # Over 255 characters is the invalid value a negative case may be about: kept as it is.
            if name.lower() == "idempotency-key" and isinstance(value, str) and value and len(value) <= 255:
                case.headers[name] = f"st-{uuid.uuid4()}"
    return case
