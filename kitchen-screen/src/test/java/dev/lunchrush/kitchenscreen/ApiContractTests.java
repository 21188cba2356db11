package dev.lunchrush.kitchenscreen;

import dev.lunchrush.testing.ServiceApiContract;

/**
 * The kitchen screen's OpenAPI document against the running service, both ways ({@link ServiceApiContract}), on the
 * screen the other whole-application tests run ({@link RunningScreen}).
 */
class ApiContractTests extends ServiceApiContract implements RunningScreen {
}
