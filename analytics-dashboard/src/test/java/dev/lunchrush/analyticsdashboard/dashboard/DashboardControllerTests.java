package dev.lunchrush.analyticsdashboard.dashboard;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.DayReport;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * {@code GET /api/days/{date}}'s web edge, the counting behind it mocked: the zone asked for, else the dashboard's,
 * and a 400 naming the field for a date or a zone that is none. The counting in a zone is {@code AggregatesTests}'.
 */
@WebMvcTest(controllers = DashboardController.class, properties = "lunchrush.zone=Asia/Kathmandu")
@EnableConfigurationProperties(DashboardProperties.class)
class DashboardControllerTests {

    private static final LocalDate DAY = LocalDate.of(2024, 3, 10);

    @Autowired
    private MockMvcTester mvc;

    @MockitoBean
    private Aggregates aggregates;

    @MockitoBean
    private OrderProcessor processor;

    @MockitoBean
    private Capacity capacity;

    @MockitoBean
    private DashboardStream stream;

    @Test
    void aDayIsCountedInTheZoneAskedForElseInTheDashboards() {
        when(aggregates.day(any(), any())).thenAnswer(call -> new DayReport(call.getArgument(0).toString(),
                call.<ZoneId>getArgument(1).getId(), 2, Map.of("k3", 2L), Map.of("00", 1L, "23", 1L), Map.of("pad-thai", 4L)));

        assertThat(mvc.get().uri("/api/days/2024-03-10?zone=UTC")).hasStatusOk().bodyJson()
                .extractingPath("$.zone").isEqualTo("UTC");
        verify(aggregates).day(DAY, ZoneId.of("UTC"));

        assertThat(mvc.get().uri("/api/days/2024-03-10")).hasStatusOk().bodyJson()
                .isLenientlyEqualTo("""
                        {"date": "2024-03-10", "zone": "Asia/Kathmandu", "totalOrders": 2, "ordersPerKitchen": {"k3": 2},
                         "ordersPerHour": {"00": 1, "23": 1}, "portionsPerDish": {"pad-thai": 4}}""");
        verify(aggregates).day(DAY, ZoneId.of("Asia/Kathmandu"));
    }

    @Test
    void aDateOrAZoneThatIsNoneIsRefusedWithTheFieldNamed() {
        assertThat(mvc.get().uri("/api/days/2024-13-01")).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.field").isEqualTo("date");
        assertThat(mvc.get().uri("/api/days/2024-03-10?zone=Mars/Olympus")).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.field").isEqualTo("zone");
        verifyNoInteractions(aggregates);
    }
}
