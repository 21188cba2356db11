package dev.lunchrush.support.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The parts of every service's OpenAPI document (springdoc, {@code /v3/api-docs}) that no controller says: the
 * title, the HTTP Basic scheme of the admin ({@link dev.lunchrush.support.AdminSecurityConfiguration}), and on every
 * operation under {@code /admin/**} that requirement and its 401. Each service imports it next to the security.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocumentation {

    /** The security scheme of {@code /admin/**}: HTTP Basic, user {@code admin}. */
    public static final String ADMIN = "admin";

    /** The media type of every error answer. */
    public static final String PROBLEM_JSON = "application/problem+json";

    private static final String ADMIN_PATHS = "/admin/";

    @Bean
    OpenAPI lunchRushOpenApi(@Value("${spring.application.name}") String application) {
        return new OpenAPI()
                .info(new Info().title("Lunch Rush " + application).version("1")
                        .description("The HTTP API of the " + application + ". Errors are application/problem+json; "
                                + "/admin/** takes HTTP Basic (user admin). Actuator (/actuator/health/liveness, "
                                + "/actuator/health/readiness, /actuator/prometheus) is Spring Boot's and not listed here."))
                .components(new Components().addSecuritySchemes(ADMIN, new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("basic")
                        .description("user admin, the stack's admin password (LUNCHRUSH_SECURITY_ADMIN_PASSWORD)")));
    }

    /** Every admin operation needs the admin, and says what it answers without: 401 with a Basic challenge. */
    @Bean
    OpenApiCustomizer lunchRushAdminOperations() {
        return openApi -> openApi.getPaths().forEach((path, item) -> {
            if (path.startsWith(ADMIN_PATHS)) {
                item.readOperations().forEach(ApiDocumentation::admin);
            }
        });
    }

    private static void admin(Operation operation) {
        operation.addSecurityItem(new SecurityRequirement().addList(ADMIN));
        if (operation.getResponses() != null && !operation.getResponses().containsKey("401")) {
            operation.getResponses().addApiResponse("401", new ApiResponse()
                    .description("No credentials, or not the admin's")
                    .addHeaderObject("WWW-Authenticate", new Header().description("Basic realm=\"Realm\"")
                            .schema(new StringSchema())));
        }
    }
}
