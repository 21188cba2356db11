package dev.lunchrush.support.problems;

import org.springframework.http.ProblemDetail;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.AuthenticationException;

/** The problem documents of Spring Security's refusals, the same on the servlet and the reactive services. */
public final class SecurityProblems {

    /** The challenge of a 401: HTTP Basic, Spring Security's default realm. */
    public static final String CHALLENGE = "Basic realm=\"Realm\"";

    private SecurityProblems() {
    }

    /** 401: no credentials, or credentials that are not accepted. */
    public static ProblemDetail unauthorized(AuthenticationException cause) {
        return ProblemType.UNAUTHORIZED.problem(cause instanceof BadCredentialsException
                ? "the credentials given are not accepted: HTTP Basic, user admin with the stack's admin password"
                : "credentials are required here: HTTP Basic, user admin with the stack's admin password");
    }

    /** 403: a user who may look but not change anything (the viewer). */
    public static ProblemDetail forbidden() {
        return ProblemType.FORBIDDEN.problem("these credentials may read, not change: this takes the admin's");
    }
}
