// The Go flow of the generated-clients suite (test/generated-clients/run.ts): through the Go
// clients openapi-generator made of the served documents (built in GOPATH mode as vexil/public
// and vexil/management), sets up a number flag with the management client and has the public
// client evaluate it with a declared default that a float32 cannot hold, which must come back
// exactly (the documents' numbers are doubles).
package main

import (
	"context"
	"fmt"
	"os"

	mgmt "vexil/management"
	pub "vexil/public"
)

const project = "go-flow"
const environment = "production"

// 123456789.125 is exact in a double; a float32 makes it 123456790.
const limit = 123456789.125

func check(condition bool, what string) {
	if !condition {
		fmt.Fprintf(os.Stderr, "failed: %s\n", what)
		os.Exit(1)
	}
	fmt.Printf("ok %s\n", what)
}

func must(err error, what string) {
	if err != nil {
		detail := ""
		if open, ok := err.(interface{ Body() []byte }); ok {
			detail = ": " + string(open.Body())
		}
		fmt.Fprintf(os.Stderr, "failed in %s: %v%s\n", what, err, detail)
		os.Exit(1)
	}
}

func main() {
	base := os.Getenv("VEXIL_URL")
	token := os.Getenv("VEXIL_OWNER_TOKEN")
	if base == "" || token == "" {
		fmt.Fprintln(os.Stderr, "VEXIL_URL and VEXIL_OWNER_TOKEN are not set (run the flows through test/generated-clients/run.ts)")
		os.Exit(1)
	}

	managementConfig := mgmt.NewConfiguration()
	managementConfig.Servers = mgmt.ServerConfigurations{{URL: base + "/management/v1"}}
	management := mgmt.NewAPIClient(managementConfig)
	asOwner := context.WithValue(context.Background(), mgmt.ContextAccessToken, token)

	_, _, err := management.ProjectsAPI.CreateProject(asOwner).ProjectCreate(*mgmt.NewProjectCreate(project, "Go flow")).Execute()
	must(err, "createProject")
	created, _, err := management.EnvironmentKeysAPI.CreateEnvironmentKey(asOwner, project, environment).
		EnvironmentKeyCreate(*mgmt.NewEnvironmentKeyCreate(mgmt.SERVER)).Execute()
	must(err, "createEnvironmentKey")
	_, _, err = management.FlagsAPI.CreateFlag(asOwner, project).FlagCreate(*mgmt.NewFlagCreate("max-cart-items", "Maximum cart items", mgmt.NUMBER)).Execute()
	must(err, "createFlag")
	check(created.Data.Key != "", "management: project, server key and number flag created")

	publicConfig := pub.NewConfiguration()
	publicConfig.Servers = pub.ServerConfigurations{{URL: base}}
	public := pub.NewAPIClient(publicConfig)
	withKey := context.WithValue(context.Background(), pub.ContextAPIKeys, map[string]pub.APIKey{"apiKey": {Key: created.Data.Key}})

	declared := pub.NumberDefaultValueAsDefaultValueDeclaration(pub.NewNumberDefaultValue("max-cart-items", "number", limit))
	request := pub.NewEvaluationRequest()
	request.SetDefaultValues([]pub.DefaultValueDeclaration{declared})
	evaluated, _, err := public.EvaluationAPI.EvaluateFlag(withKey, "max-cart-items").EvaluationRequest(*request).Execute()
	must(err, "evaluateFlag")
	served := evaluated.Data.Flag.Value.GetNumber()
	check(served == limit, fmt.Sprintf("evaluateFlag round-trips the declared number default exactly (%v)", served))

	fmt.Println("go flow: done")
}
