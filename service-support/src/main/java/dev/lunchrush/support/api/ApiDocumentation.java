package dev.lunchrush.support.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.support.problems.ProblemType;

/**
 * The parts of every service's OpenAPI document (springdoc, {@code /v3/api-docs}) that no controller says: the
 * title, the HTTP Basic scheme of the admin ({@link dev.lunchrush.support.AdminSecurityConfiguration}), on every
 * operation under {@code /admin/**} that requirement and its 401 and 403, and the problem document's {@code type}s
 * ({@link ProblemType}). Each service imports it next to the security.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocumentation {

    /** The security scheme of {@code /admin/**}: HTTP Basic, user {@code admin}. */
    public static final String ADMIN = "admin";

    /** The media type of every error answer. */
    public static final String PROBLEM_JSON = "application/problem+json";

    /** Where the problem types are described, for a reader of the document. */
    public static final String PROBLEM_TYPES_PAGE = "docs/problems.md";

    private static final String ADMIN_PATHS = "/admin/";
    private static final String PROBLEM_SCHEMA = "Problem";

    @Bean
    OpenAPI lunchRushOpenApi(@Value("${spring.application.name}") String application) {
        return new OpenAPI()
                .info(new Info().title("Lunch Rush " + application).version("1")
                        .description("The HTTP API of the " + application + ". Errors are application/problem+json "
                                + "(RFC 9457) whose type, a URI under " + ProblemType.BASE + ", tells one kind from another "
                                + "(" + PROBLEM_TYPES_PAGE + "); /admin/** takes HTTP Basic (user admin). Actuator (/actuator/health/liveness, "
                                + "/actuator/health/readiness, /actuator/prometheus) is Spring Boot's and not listed here."))
                .components(new Components().addSecuritySchemes(ADMIN, new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("basic")
                        .description("user admin, the stack's admin password (LUNCHRUSH_SECURITY_ADMIN_PASSWORD)")));
    }

    /**
     * Every admin operation needs the admin ({@code /admin/**}, and any other that says it does), and says what it
     * answers without: 401 with a Basic challenge, 403 for the viewer, each a problem document.
     */
    @Bean
    OpenApiCustomizer lunchRushAdminOperations() {
        return openApi -> {
            boolean problemSchema = hasProblemSchema(openApi);
            openApi.getPaths().forEach((path, item) -> item.readOperations().forEach(operation -> {
                if (path.startsWith(ADMIN_PATHS)) {
                    operation.addSecurityItem(new SecurityRequirement().addList(ADMIN));
                }
                if (operation.getSecurity() != null
                        && operation.getSecurity().stream().anyMatch(requirement -> requirement.containsKey(ADMIN))) {
                    refusals(operation, path.startsWith(ADMIN_PATHS), problemSchema);
                }
            }));
        };
    }

    /** The {@code type} of the problem document lists every kind, each with its URI and status. */
    @Bean
    OpenApiCustomizer lunchRushProblemTypes() {
        return openApi -> {
            if (!hasProblemSchema(openApi)) {
                return;
            }
            Schema<?> type = (Schema<?>) openApi.getComponents().getSchemas().get(PROBLEM_SCHEMA).getProperties().get("type");
            if (type != null) {
                StringBuilder kinds = new StringBuilder("A URI naming the kind of problem (an identifier, served nowhere; "
                        + PROBLEM_TYPES_PAGE + " says what each means and what to do):");
                for (ProblemType kind : ProblemType.values()) {
                    kinds.append(' ').append(kind.uri()).append(" (").append(kind.status().value()).append(')')
                            .append(kind.ordinal() < ProblemType.values().length - 1 ? ',' : '.');
                }
                type.setDescription(kinds.toString());
            }
        };
    }

    private static boolean hasProblemSchema(OpenAPI openApi) {
        return openApi.getComponents() != null && openApi.getComponents().getSchemas() != null
                && openApi.getComponents().getSchemas().containsKey(PROBLEM_SCHEMA);
    }

    /** 401 and its challenge; 403 where a role is needed ({@code /admin/**}, or where the operation says so). */
    private static void refusals(Operation operation, boolean adminPath, boolean problemSchema) {
        if (operation.getResponses() == null) {
            return;
        }
        ApiResponse unauthorized = operation.getResponses().computeIfAbsent("401", status -> new ApiResponse()
                .description("No credentials, or not the admin's"));
        unauthorized.setDescription(typed(unauthorized.getDescription(), ProblemType.UNAUTHORIZED));
        if (unauthorized.getHeaders() == null || !unauthorized.getHeaders().containsKey("WWW-Authenticate")) {
            unauthorized.addHeaderObject("WWW-Authenticate", new Header().description("Basic realm=\"Realm\"")
                    .schema(new StringSchema()));
        }
        if (unauthorized.getContent() == null || unauthorized.getContent().isEmpty()) {
            unauthorized.setContent(problem(problemSchema));
        }
        if (adminPath) {
            operation.getResponses().computeIfAbsent("403", status -> new ApiResponse()
                    .description("The viewer's credentials: it may read, not change"));
        }
        ApiResponse forbidden = operation.getResponses().get("403");
        if (forbidden == null) {
            return;
        }
        forbidden.setDescription(typed(forbidden.getDescription(), ProblemType.FORBIDDEN));
        if (forbidden.getContent() == null || forbidden.getContent().isEmpty()) {
            forbidden.setContent(problem(problemSchema));
        }
    }

    /** The description, with the type of its problem where it does not name it yet. */
    private static String typed(String description, ProblemType type) {
        String text = description == null ? "" : description.strip();
        if (text.contains(type.uri().toString())) {
            return text;
        }
        return (text.endsWith(".") ? text.substring(0, text.length() - 1) : text) + ". Type " + type.uri();
    }

    private static Content problem(boolean problemSchema) {
        MediaType problem = new MediaType();
        if (problemSchema) {
            problem.setSchema(new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA));
        }
        return new Content().addMediaType(PROBLEM_JSON, problem);
    }
}
