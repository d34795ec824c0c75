"""The strict positive-data check of hooks.py, run by the installed Schemathesis (`make schemathesis`
runs this before fuzzing: `.venv/bin/python -m pytest test/schemathesis/test_hooks.py`).

A fuzzing run that stays green proves nothing about a check that never fails, so this loads hooks.py
as Schemathesis does for SCHEMATHESIS_HOOKS, takes the check from Schemathesis's registry (what
`--checks all` runs), and gives it cases Schemathesis generated for a small document: schema-valid
input refused with 422 `validation_failed` must fail, a rule-based code must pass.
"""

import json
import os

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import CHECKS
from schemathesis.core.failures import FailureGroup
from schemathesis.core.hooks import load_from_path
from schemathesis.core.transport import Response
from schemathesis.generation import GenerationMode

load_from_path(os.path.join(os.path.dirname(__file__), "hooks.py"))
refusal_has_rule_code = CHECKS.get_one("refusal_has_rule_code")

DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Refusals", "version": "1"},
    "paths": {
        "/things": {
            "post": {
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["key"],
                                "additionalProperties": False,
                                "properties": {"key": {"type": "string", "pattern": "^[a-z]{1,8}$"}},
                            }
                        }
                    },
                },
                "responses": {
                    "201": {"description": "Created."},
                    "422": {
                        "description": "Refused.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["code"],
                                    "properties": {"code": {"type": "string"}},
                                }
                            }
                        },
                    },
                },
            }
        }
    },
}
OPERATION = schemathesis.openapi.from_dict(DOCUMENT)["/things"]["POST"]
FEW = settings(max_examples=3, database=None, deadline=None, suppress_health_check=list(HealthCheck))


def refusal(case, code, status=422):
    request = requests.Request("POST", "http://127.0.0.1/things").prepare()
    body = json.dumps({"status": "error", "message": "Refused.", "code": code}).encode()
    return Response(status, {"content-type": ["application/json"]}, body, request, elapsed=0.01, verify=True)


@FEW
@given(case=OPERATION.as_strategy(GenerationMode.POSITIVE))
def test_schema_valid_input_refused_as_invalid_fails(case):
    assert case.meta.generation.mode.is_positive
    with pytest.raises(AssertionError, match="'validation_failed'"):
        refusal_has_rule_code(None, refusal(case, "validation_failed"), case)
    # The same through Schemathesis's own check runner, as a fuzzing run reports it.
    with pytest.raises(FailureGroup):
        case.validate_response(refusal(case, "validation_failed"), checks=[refusal_has_rule_code])


@FEW
@given(case=OPERATION.as_strategy(GenerationMode.POSITIVE))
def test_schema_valid_input_refused_by_a_rule_passes(case):
    for code in ("idempotency_key_reused", "already_exists", "state_conflict"):
        assert refusal_has_rule_code(None, refusal(case, code), case) is None
        case.validate_response(refusal(case, code), checks=[refusal_has_rule_code])
    # 409 is held to the same rule; statuses that need no code are left alone.
    with pytest.raises(AssertionError):
        refusal_has_rule_code(None, refusal(case, "bad_request", status=409), case)
    assert refusal_has_rule_code(None, refusal(case, "not_found", status=404), case) is None


@FEW
@given(case=OPERATION.as_strategy(GenerationMode.NEGATIVE))
def test_invalid_input_may_be_refused_as_invalid(case):
    assert refusal_has_rule_code(None, refusal(case, "validation_failed"), case) is None
