package dev.lunchrush.backlogmonitor.readers;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A Prometheus scrape reads the backlog gauges: the poller is asked for figures at most a poll interval old
 * before the scrape is written, so that every scrape (every 5 s, infra/prometheus) gets current figures and
 * the brokers are asked once per scrape rather than every second whether anyone looks or not.
 */
@Configuration(proxyBeanMethods = false)
class ScrapeRefresh {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> backlogScrapeRefresh(BacklogPoller poller) {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                poller.refresh();
                chain.doFilter(request, response);
            }
        });
        registration.addUrlPatterns("/actuator/prometheus");
        return registration;
    }
}
