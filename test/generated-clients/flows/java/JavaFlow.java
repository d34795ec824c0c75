// The Java flow of the generated-clients suite (test/generated-clients/run.ts): sets up a project,
// a server key and a number flag with three plain management requests, then has the Java client
// openapi-generator (`java`, library `native`) made of the public document evaluate the flag with
// a declared default that a float cannot hold, which must come back exactly.
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.openapitools.client.ApiClient;
import org.openapitools.client.api.EvaluationApi;
import org.openapitools.client.model.DefaultValueDeclaration;
import org.openapitools.client.model.EvaluatedFlagResponse;
import org.openapitools.client.model.EvaluationRequest;
import org.openapitools.client.model.NumberDefaultValue;

public class JavaFlow {
  // 123456789.125 is exact in a double; a float makes it 123456790.
  static final double LIMIT = 123456789.125;

  static void check(boolean condition, String what) {
    if (!condition) {
      System.err.println("failed: " + what);
      System.exit(1);
    }
    System.out.println("ok " + what);
  }

  static String post(HttpClient http, String url, String token, String json) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
    return response.body();
  }

  public static void main(String[] args) throws Exception {
    String base = System.getenv("VEXIL_URL");
    String token = System.getenv("VEXIL_OWNER_TOKEN");
    HttpClient http = HttpClient.newHttpClient();
    String management = base + "/management/v1/projects";
    post(http, management, token, "{\"key\":\"java-flow\",\"name\":\"Java flow\"}");
    String created = post(http, management + "/java-flow/environments/production/keys", token, "{\"kind\":\"server\"}");
    String serverKey = new ObjectMapper().readTree(created).path("data").path("key").asText();
    post(http, management + "/java-flow/flags", token, "{\"key\":\"max-cart-items\",\"name\":\"Maximum cart items\",\"type\":\"number\"}");

    ApiClient client = new ApiClient();
    client.updateBaseUri(base);
    client.setRequestInterceptor(builder -> builder.header("X-VEXIL-API-KEY", serverKey));
    NumberDefaultValue declared = new NumberDefaultValue().key("max-cart-items").type(NumberDefaultValue.TypeEnum.NUMBER).value(LIMIT);
    EvaluationRequest request = new EvaluationRequest().defaultValues(List.of(new DefaultValueDeclaration(declared)));
    EvaluatedFlagResponse evaluated = new EvaluationApi(client).evaluateFlag("max-cart-items", request);
    Double served = evaluated.getData().getFlag().getValue().getNumber();
    check(served != null && served == LIMIT, "evaluateFlag round-trips the declared number default exactly (" + served + ")");
    System.out.println("java flow: done");
  }
}
