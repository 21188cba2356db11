package dev.lunchrush.testing;

import java.util.Set;
import java.util.TreeSet;

import org.springframework.context.ApplicationContext;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.lunchrush.testing.ApiContract.Mapping;

/** The Spring MVC handler mappings of a service's own controllers ({@code dev.lunchrush.*}), for {@link ApiContract}. */
public final class MvcMappings {

    private MvcMappings() {
    }

    public static Set<Mapping> of(ApplicationContext context) {
        Set<Mapping> mappings = new TreeSet<>();
        context.getBeansOfType(RequestMappingHandlerMapping.class).values().forEach(handlers ->
                handlers.getHandlerMethods().forEach((info, method) -> {
                    if (!method.getBeanType().getName().startsWith("dev.lunchrush.")) {
                        return;
                    }
                    Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                    for (String path : info.getPatternValues()) {
                        if (methods.isEmpty()) {
                            mappings.add(new Mapping("GET", path));
                        }
                        methods.forEach(requestMethod -> mappings.add(new Mapping(requestMethod.name(), path)));
                    }
                }));
        return mappings;
    }
}
