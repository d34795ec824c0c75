"""Schemathesis hooks for `make test` (test/schemathesis/run.mjs loads this file via SCHEMATHESIS_HOOKS).

Stateful phase only. Its scenarios are chains (create a project, then its environments, flags,
keys, ...) that get going only when the first create succeeds. Every `name` field is documented as
"not blank, without control characters", a rule the schema states in prose (no `pattern`), so
generated names are refused with a 422 most of the time and the chains stop at their first step.
In positive stateful cases, `name` values are therefore cleaned of control characters (and a blank
one replaced). The other phases keep sending such names, so the 422 answers stay fuzzed there.

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

import re
import threading
import uuid

import schemathesis
from schemathesis.generation import GenerationMode
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase

# The characters src/features/projects/admin-common.ts refuses in names.
CONTROL_CHARACTER = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]")


def _clean_names(value):
    if isinstance(value, dict):
        cleaned = {}
        for key, item in value.items():
            if key == "name" and isinstance(item, str):
                item = CONTROL_CHARACTER.sub("", item)
                if not item.strip():
                    item = "Fuzz"
                cleaned[key] = item
            else:
                cleaned[key] = _clean_names(item)
        return cleaned
    if isinstance(value, list):
        return [_clean_names(item) for item in value]
    return value


# src/features/rules/criteria.ts: rules no schema states (which comparers a selector takes, values
# required or forbidden, numbers for ordering comparers, an attribute needs a sub_selector).
IDENTITY_COMPARERS = {"equal", "notequal", "in", "notin"}
VALUELESS_COMPARERS = {"isnull", "notnull"}
NUMERIC_COMPARERS = {"gt", "gte", "lt", "lte"}
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")


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
        case.body = _clean_names(case.body)
        if context.operation is not None and context.operation.definition.raw.get("operationId") == "createRule":
            case.body = _repair_rule(case.body)
    if case.headers:
        for name, value in list(case.headers.items()):
            # Over 255 characters is the invalid value a negative case may be about: kept as it is.
            if name.lower() == "idempotency-key" and isinstance(value, str) and value and len(value) <= 255:
                case.headers[name] = f"st-{uuid.uuid4()}"
    return case
