package dev.lunchrush.testing;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

import dev.lunchrush.testing.ApiContract.Mapping;

/**
 * The Spring WebFlux mappings of a service's own code ({@code dev.lunchrush.*}), for {@link ApiContract}: its
 * controllers' annotated handler mappings and the routes of its router functions.
 */
public final class FluxMappings {

    /** A route as a router function describes itself: {@code (POST && /orders)}. */
    private static final Pattern ROUTE = Pattern.compile("\\((GET|POST|PUT|DELETE|PATCH) && (/[^ )]*)\\)");

    private FluxMappings() {
    }

    public static Set<Mapping> of(ConfigurableApplicationContext context) {
        Set<Mapping> mappings = new TreeSet<>();
        context.getBeansOfType(RouterFunction.class).forEach((name, routes) -> {
            BeanDefinition definition = context.getBeanFactory().getBeanDefinition(name);
            if (definition instanceof AnnotatedBeanDefinition annotated && annotated.getFactoryMethodMetadata() != null
                    && annotated.getFactoryMethodMetadata().getDeclaringClassName().startsWith("dev.lunchrush.")) {
                Matcher route = ROUTE.matcher(routes.toString());
                while (route.find()) {
                    mappings.add(new Mapping(route.group(1), route.group(2)));
                }
            }
        });
        context.getBeansOfType(RequestMappingHandlerMapping.class).values().forEach(handlers ->
                handlers.getHandlerMethods().forEach((info, method) -> {
                    if (!method.getBeanType().getName().startsWith("dev.lunchrush.")) {
                        return;
                    }
                    info.getPatternsCondition().getPatterns().forEach(pattern ->
                            info.getMethodsCondition().getMethods().forEach(requestMethod ->
                                    mappings.add(new Mapping(requestMethod.name(), pattern.getPatternString()))));
                }));
        return mappings;
    }
}
