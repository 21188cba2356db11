package dev.lunchrush.support.problems;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of a servlet service as {@code application/problem+json} with a {@code type}: Spring MVC's own (an
 * unknown path, a wrong method, an unsupported Content-Type, an unreadable body …) through
 * {@link ResponseEntityExceptionHandler}, typed by their status ({@link ProblemType#typed}); ours through
 * {@link ProblemException}, with an {@code errors} array where a field is to blame; a body that breaks the constraints
 * of its record ({@code @Valid}) as 400 {@code invalid-input} with every field that breaks one in {@code errors}
 * ({@link #invalid}), and a JSON body that does not bind to it (an unknown field, a value of the wrong type) as 400
 * naming the first field at fault; and Spring Security's 401 and 403
 * ({@link #unauthorized}, {@link #forbidden}) and its firewall's refusals ({@link #rejected}), which it answers before
 * any controller.
 *
 * <p>It takes the place of Spring Boot's handler of {@code spring.mvc.problemdetails.enabled}
 * ({@link ProblemHandling}). A service's own advice for its own exceptions sits beside it.
 */
@RestControllerAdvice
public class ServletProblems extends ResponseEntityExceptionHandler {

    /** The constraints whose message a field gets before any other: it is missing. */
    private static final Set<String> REQUIRED = Set.of("NotNull", "NotBlank", "NotEmpty");

    /** The methods Spring Security's firewall lets through (its default); it refuses any other on every path. */
    private static final Set<String> TAKEN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> problem(ProblemException ex) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(ex.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        ex.headers().forEach(response::header);
        // the instance, the request's path, is Spring MVC's to fill in
        return response.body(ex.problem(null));
    }

    /** A {@code @Valid} body with fields that break their constraints: 400 naming each one ({@link #invalid}). */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return rendered(invalid(ex.getAllErrors()));
    }

    /**
     * Constraints on the handler's parameters (a path variable's, or a {@code @Valid} body's beside them): 400
     * naming each field or parameter that breaks one ({@link #invalid}).
     */
    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<ObjectError> errors = new ArrayList<>();
        ex.getParameterValidationResults().forEach(result -> {
            if (result instanceof ParameterErrors parameterErrors) {
                errors.addAll(parameterErrors.getAllErrors());
            }
            else {
                String name = result.getMethodParameter().getParameterName();
                result.getResolvableErrors().forEach(error -> errors.add(new FieldError("request",
                        name == null ? "" : name, error.getDefaultMessage() == null ? "is not valid" : error.getDefaultMessage())));
            }
        });
        return rendered(invalid(errors));
    }

    /**
     * A body that Jackson could not bind: where it names the field at fault (an unknown one, a value of the wrong
     * type or out of its type's range), or the body is not of the kind the operation takes (an array for an object),
     * 400 with that field ({@code ""} for the body) in {@code errors}; else (broken JSON) Spring's own 400.
     */
    @Override
    protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (ex.getCause() instanceof JacksonException json
                && (!json.getPath().isEmpty() || json instanceof MismatchedInputException)) {
            return rendered(ProblemException.invalid("Invalid request",
                    List.of(new FieldProblem(path(json.getPath()), unreadable(json)))));
        }
        return super.handleHttpMessageNotReadable(ex, headers, status, request);
    }

    /** A JSON path as {@code errors} names a field: {@code items[1].quantity}. */
    private static String path(List<JacksonException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : references) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            }
            else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String unreadable(JacksonException json) {
        if (json instanceof UnrecognizedPropertyException unknown) {
            return "unknown field; the fields are " + String.join(", ", unknown.getKnownPropertyIds().stream()
                    .map(String::valueOf).sorted().toList());
        }
        if (json instanceof InputCoercionException coercion) {
            return "must be " + kind(coercion.getTargetType()) + " within its range";
        }
        if (json instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null) {
            return "must be " + kind(mismatched.getTargetType());
        }
        return "cannot be read here";
    }

    private static String kind(@Nullable Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + String.join(", ", Arrays.stream(type.getEnumConstants()).map(String::valueOf).toList());
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "a JSON array";
        }
        return "a JSON object";
    }

    /**
     * The 400 of the constraints a request breaks: one entry of {@code errors} a field (its JSON path, such as
     * {@code items[1].quantity}, or {@code ""} for the body as a whole), in the order of their paths, with the
     * message of "required" where the field breaks that and another constraint too, else the same one every time.
     */
    static ProblemException invalid(List<? extends ObjectError> errors) {
        Map<String, ObjectError> byField = new TreeMap<>();
        for (ObjectError error : errors) {
            String field = error instanceof FieldError fieldError ? fieldError.getField() : "";
            // whichever order the validator found them in: "required" first, then by the constraint's name
            byField.merge(field, error, (one, other) -> rank(other).compareTo(rank(one)) < 0 ? other : one);
        }
        List<FieldProblem> problems = new ArrayList<>();
        byField.forEach((field, error) -> problems.add(new FieldProblem(field,
                error.getDefaultMessage() == null ? "is not valid" : error.getDefaultMessage())));
        return ProblemException.invalid("Invalid request", problems);
    }

    private static String rank(ObjectError error) {
        String code = error.getCode() == null ? "" : error.getCode();
        return (REQUIRED.contains(code) ? "0" : "1") + code;
    }

    private static ResponseEntity<Object> rendered(ProblemException ex) {
        return ResponseEntity.status(ex.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(ex.problem(null));
    }

    /** Every answer of Spring MVC's problems passes here: each gets the type of its status, unless it has one. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        if (body instanceof ProblemDetail problem) {
            ProblemType.typed(problem);
        }
        return super.createResponseEntity(body, headers, statusCode, request);
    }

    /**
     * Spring Security's 401 as a problem document with a Basic challenge: handed to Spring MVC's exception resolvers
     * ({@code handlerExceptionResolver}), so that this advice writes it as it writes every other problem.
     */
    public static AuthenticationEntryPoint unauthorized(HandlerExceptionResolver resolver) {
        return (request, response, ex) -> answer(resolver, request, response, refused(ex));
    }

    /** Spring Security's 403 (credentials of a user who may not do this), as {@link #unauthorized} writes the 401. */
    public static AccessDeniedHandler forbidden(HandlerExceptionResolver resolver) {
        return (request, response, ex) -> answer(resolver, request, response, refused(ex));
    }

    /**
     * Spring Security's firewall, which refuses a request before any security chain or handler sees it (a {@code ;},
     * {@code //} or an encoded {@code /} in the path, a header it takes for unsafe): 400 {@code rejected-request}, or
     * 405 for a method it takes on no path ({@code TRACE} …, without {@code Allow}), written as {@link #unauthorized}
     * writes the 401.
     */
    public static RequestRejectedHandler rejected(HandlerExceptionResolver resolver) {
        return (request, response, ex) -> {
            ProblemType type = TAKEN_METHODS.contains(request.getMethod()) ? ProblemType.REJECTED_REQUEST
                    : ProblemType.METHOD_NOT_ALLOWED;
            String detail = type == ProblemType.REJECTED_REQUEST ? "the request was refused: " + ex.getMessage()
                    : "this service takes no " + request.getMethod() + " request, whatever the path";
            answer(resolver, request, response, new ErrorResponseException(type.status(), type.problem(detail), ex));
        };
    }

    /** The refusal as the resolvers write it; its bare status should none of them take it. */
    private static void answer(HandlerExceptionResolver resolver, HttpServletRequest request,
            HttpServletResponse response, ErrorResponseException refused) throws IOException {
        if (resolver.resolveException(request, response, null, refused) == null && !response.isCommitted()) {
            refused.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
            response.sendError(refused.getStatusCode().value());
        }
    }

    static ErrorResponseException refused(AuthenticationException cause) {
        ErrorResponseException refused = new ErrorResponseException(ProblemType.UNAUTHORIZED.status(),
                SecurityProblems.unauthorized(cause), cause);
        refused.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, SecurityProblems.CHALLENGE);
        return refused;
    }

    static ErrorResponseException refused(AccessDeniedException cause) {
        return new ErrorResponseException(ProblemType.FORBIDDEN.status(), SecurityProblems.forbidden(), cause);
    }
}
