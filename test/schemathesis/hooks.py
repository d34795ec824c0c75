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
"""

import re
import uuid

import schemathesis
from schemathesis.generation import GenerationMode
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


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.STATEFUL:
        return case
    if meta.generation.mode == GenerationMode.POSITIVE and isinstance(case.body, (dict, list)):
        case.body = _clean_names(case.body)
    if case.headers:
        for name, value in list(case.headers.items()):
            # Over 255 characters is the invalid value a negative case may be about: kept as it is.
            if name.lower() == "idempotency-key" and isinstance(value, str) and value and len(value) <= 255:
                case.headers[name] = f"st-{uuid.uuid4()}"
    return case
