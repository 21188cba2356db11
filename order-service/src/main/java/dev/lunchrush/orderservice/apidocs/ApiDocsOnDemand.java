package dev.lunchrush.orderservice.apidocs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.MethodMetadata;

/**
 * springdoc's beans are made when {@code /v3/api-docs} (or its page) is first asked, not at the start. The order
 * service's heap is act 3's lesson: the feed's budget is the heap's room over what is alive, and springdoc made at
 * the start would keep its model converters, a Jackson 2 mapper and their caches alive for the service's whole
 * life. Made lazily, a service whose document nobody reads pays only for springdoc's
 * classes; {@code springdoc.cache.disabled} (application.yml) keeps the built document from staying on the heap
 * once it is answered.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocsOnDemand {

    private static final Logger log = LoggerFactory.getLogger(ApiDocsOnDemand.class);

    private static final String SPRINGDOC = "org.springdoc.";

    /** Static: a post-processor of bean definitions is made before any other bean. */
    @Bean
    static BeanFactoryPostProcessor springdocOnDemand() {
        return beanFactory -> {
            int lazy = 0;
            for (String name : beanFactory.getBeanDefinitionNames()) {
                BeanDefinition definition = beanFactory.getBeanDefinition(name);
                if (fromSpringdoc(definition)) {
                    definition.setLazyInit(true);
                    lazy++;
                }
            }
            log.debug("{} springdoc beans made on demand", lazy);
        };
    }

    private static boolean fromSpringdoc(BeanDefinition definition) {
        String type = definition.getBeanClassName();
        if (type != null && type.startsWith(SPRINGDOC)) {
            return true;
        }
        MethodMetadata factoryMethod = definition instanceof AnnotatedBeanDefinition annotated
                ? annotated.getFactoryMethodMetadata() : null;
        return factoryMethod != null && factoryMethod.getDeclaringClassName().startsWith(SPRINGDOC);
    }
}
