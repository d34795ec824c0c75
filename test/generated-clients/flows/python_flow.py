"""The python flow of the generated-clients suite (test/generated-clients/run.ts).

Through the python clients openapi-generator made of the served documents (packages
vexil_public and vexil_management): sets up a project with the management client, then calls
every operation of the public document, sending the context and default values as JSON values in
the bodies of the POST twins (and OFREP), and checks they arrive intact (a rule matches a
non-ASCII attribute value; a nested JSON default comes back equal). The proxy in front of the
server checks every response against the documents; the clients' own models parse them too.
"""

import json
import os
import sys

import vexil_management as mgmt
import vexil_public as pub
from vexil_public.exceptions import ApiException

BASE = os.environ["VEXIL_URL"]
TOKEN = os.environ["VEXIL_OWNER_TOKEN"]
PROJECT = "python-flow"
ENV = "production"
CITY = "Zürich & Co \"quoted\""
NESTED = {"palette": {"primary": "#0055ff", "levels": [1, 2.5, {"deep": None}]}, "label": "Grüße", "on": True}


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok {what}")


management = mgmt.ApiClient(mgmt.Configuration(host=BASE + "/management/v1", access_token=TOKEN))
projects = mgmt.ProjectsApi(management)
keys = mgmt.EnvironmentKeysApi(management)
flags = mgmt.FlagsApi(management)
values = mgmt.FlagValuesApi(management)
targets = mgmt.TargetsApi(management)
rules = mgmt.RulesApi(management)
management_evaluation = mgmt.EvaluationApi(management)

# ---------------------------------------------------------------- set-up (management client)
projects.create_project(mgmt.ProjectCreate(key=PROJECT, name="Python flow"))
server_key = keys.create_environment_key(PROJECT, ENV, mgmt.EnvironmentKeyCreate(kind="server")).data.key
client_key = keys.create_environment_key(PROJECT, ENV, mgmt.EnvironmentKeyCreate(kind="client", name="Browser")).data.key
flags.create_flag(PROJECT, mgmt.FlagCreate(key="checkout", name="New checkout", type="boolean"))
flags.create_flag(PROJECT, mgmt.FlagCreate(key="theme", name="Theme", type="json"))  # no values: unavailable
flag_values = {v.display: v.ulid for v in values.list_flag_values(PROJECT, "checkout").data}
draft = targets.create_target(PROJECT, "checkout", ENV).data
rules.create_rule(
    PROJECT,
    "checkout",
    ENV,
    draft.ulid,
    mgmt.RuleWrite(
        value_ulid=flag_values["true"],
        description="Customers in one city",
        criteria=[mgmt.CriterionWrite(selector="attribute", sub_selector="city", comparer="equal", values=[CITY])],
    ),
)
targets.publish_target(PROJECT, "checkout", ENV, draft.ulid, mgmt.TargetPublish(comment="python flow"))
in_city = mgmt.EvaluationContext(
    type="user",
    identifier="u-1",
    attributes=[mgmt.ContextAttribute(key="city", values=[mgmt.ContextAttributeValue(value=CITY)])],
)
preview = management_evaluation.evaluate_flag_for_context(PROJECT, "checkout", ENV, mgmt.ManagementEvaluationRequest(context=in_city)).data
check(preview.value is True and preview.resolved_by == "rule", "management evaluateFlagForContext: the context arrived intact (rule matched)")
elsewhere = management_evaluation.evaluate_flag_for_context(PROJECT, "checkout", ENV, mgmt.ManagementEvaluationRequest()).data
check(elsewhere.value is False and elsewhere.resolved_by == "target", "management evaluateFlagForContext without a context")

# ---------------------------------------------------------------- every public operation
public = pub.ApiClient(pub.Configuration(host=BASE, api_key={"apiKey": server_key}))
client_side = pub.ApiClient(pub.Configuration(host=BASE, api_key={"apiKey": client_key}))
operations = pub.OperationsApi(public)
documentation = pub.DocumentationApi(public)
evaluation = pub.EvaluationApi(public)
usage = pub.UsageApi(public)
sdk = pub.SDKApi(public)
client_sdk = pub.SDKApi(client_side)
ofrep = pub.OFREPApi(public)

check(operations.get_health().status == "ok", "getHealth")
check(operations.get_readiness().status == "ready", "getReadiness")
# GET /metrics (Prometheus text), once the document describes it.
if hasattr(operations, "get_metrics"):
    check("vexil_" in operations.get_metrics(), "getMetrics")
check(documentation.get_public_api_docs().openapi.startswith("3.0"), "getPublicApiDocs")

listed = evaluation.list_evaluated_flags().data
check([item.flag.key for item in listed] == ["checkout"], "listEvaluatedFlags leaves out the unavailable flag")
check(evaluation.get_evaluated_flag("checkout").data.flag.value.boolean is False, "getEvaluatedFlag without a context")

context = pub.Context(
    type="user",
    identifier="u-1",
    name="Ada",
    attributes=[pub.ContextAttribute(key="city", values=[pub.ContextAttributeValue(value=CITY)])],
)
declared = [
    pub.DefaultValueDeclaration(pub.JsonDefaultValue(key="theme", type="json", value=NESTED)),
    pub.DefaultValueDeclaration(pub.BooleanDefaultValue(key="checkout", type="boolean", value=False)),
]
inputs = pub.EvaluationRequest(context=context, default_values=declared)
everything = {item.flag.key: item.flag for item in evaluation.evaluate_flags(inputs).data}
check(everything["checkout"].value.boolean is True, "evaluateFlags: the context arrived intact (rule on a non-ASCII value matched)")
check(everything["theme"].value.var_json == NESTED, "evaluateFlags: the nested JSON default arrived intact")
check(evaluation.evaluate_flag("checkout", inputs).data.flag.value.boolean is True, "evaluateFlag with the context")
check(evaluation.evaluate_flag("theme", inputs).data.flag.value.var_json == NESTED, "evaluateFlag serves the declared default")
check(evaluation.evaluate_flag("checkout").data.flag.value.boolean is False, "evaluateFlag without a body")

check(usage.record_flag_usage("checkout", pub.UsageReport(count=2, context=context)).status == "success", "recordFlagUsage")

server_payload = sdk.get_payload().data.actual_instance
check(server_payload.kind == "server" and [f.key for f in server_payload.config.flags] == ["checkout", "theme"], "getPayload (server key)")
client_payload = client_sdk.get_payload_for_context(evaluation_request=inputs).data.actual_instance
served = {f.key: f.value for f in client_payload.flags}
check(served == {"checkout": True, "theme": NESTED}, "getPayloadForContext: context and defaults evaluated for the client key")
try:
    client_sdk.get_payload_for_context(if_none_match=client_payload.etag, evaluation_request=inputs)
    raise AssertionError("getPayloadForContext with If-None-Match answered a body")
except ApiException as error:
    check(error.status == 304, "getPayloadForContext answers 304 for the same inputs and ETag")

stream = sdk.stream_payload_changes_without_preload_content()
check(stream.status == 200, "streamPayloadChanges opens")
announced = None
for raw in stream.stream(64):
    for line in raw.decode("utf-8").splitlines():
        if line.startswith("data: "):
            announced = json.loads(line[len("data: "):])["etag"]
    if announced:
        break
stream.release_conn()
stream.close()
check(announced == server_payload.etag, "streamPayloadChanges announces the payload's ETag")

ofrep_context = pub.OfrepEvaluationContext.from_dict({"targetingKey": "u-1", "city": CITY})
single = ofrep.ofrep_evaluate_flag("checkout", pub.OfrepEvaluationRequest(context=ofrep_context))
check(single.value is True and single.reason == "TARGETING_MATCH", "ofrepEvaluateFlag: the context arrived intact")
bulk = ofrep.ofrep_evaluate_flags(ofrep_evaluation_request=pub.OfrepEvaluationRequest(context=ofrep_context))
check([item.actual_instance.key for item in bulk.flags] == ["checkout"], "ofrepEvaluateFlags")

print("python flow: done")
sys.exit(0)
