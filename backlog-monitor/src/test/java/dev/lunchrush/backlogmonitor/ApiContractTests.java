package dev.lunchrush.backlogmonitor;

import dev.lunchrush.testing.ServiceApiContract;

/**
 * The backlog monitor's OpenAPI document against the running service, both ways ({@link ServiceApiContract}), on
 * the monitor the other whole-application tests run ({@link RunningMonitor}).
 */
class ApiContractTests extends ServiceApiContract implements RunningMonitor {
}
